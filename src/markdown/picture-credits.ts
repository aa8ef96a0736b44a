/**
 * Photo credits on a line of their own beside a picture: "Judy Eddy/WENN.com", "Name /
 * Agency", "© Name", "Credit…Name/The Paper". Picture agencies require the credit, so
 * templates print it under the picture or its caption, in an element of no particular name
 * (`<span class="description">`), and it is who took the photo, not the story. A line is such
 * a credit when it comes straight after a picture (or after the picture's caption), is short,
 * and is only names around a slash or after a copyright sign: a sentence never has that shape.
 */
import { type ElementNode, type Node, removeNodes, type TextNode } from './dom.js';
import { collapsedPrefix } from './measure.js';

/** A credit is a few names: longer lines are captions or text. */
const MAX_CREDIT = 80;
/** A caption between the picture and the credit is a line too, not a paragraph. */
const MAX_CAPTION = 300;
/** How far up from a picture its wrapper may reach (picture > a > div > figure). */
const MAX_LIFT = 4;
/**
 * Siblings looked at on each level after the picture: the credit comes straight after it (a
 * few empty spacers at most), and a gallery of thousands of pictures must not make every
 * picture read all the others.
 */
const MAX_SCAN = 16;

/** One name: a few words, no sentence punctuation (a domain's dot is allowed: WENN.com). */
const NAME = String.raw`[\p{L}\p{N}][\p{L}\p{N}.'’&-]*(?:[ \u00a0][\p{L}\p{N}.'’&()-]+){0,4}`;
const LABEL = String.raw`(?:(?:photos?|fotos?|bild|image|credits?|photograph|picture)\s*(?:\.{2,}|…|by\b)?\s*)?`;
const CREDIT = new RegExp(
  `^${LABEL}(?:(?:©|\\(c\\))\\s*${NAME}(?:\\s*[/|,]\\s*${NAME})*|${NAME}(?:\\s*/\\s*${NAME})+)$`,
  'iu',
);

export function removePictureCredits(article: ElementNode): void {
  const pictures: ElementNode[] = [];
  collectPictures(article, pictures);
  const doomed = new Set<ElementNode>();
  const positions = new SiblingPositions();
  for (const picture of pictures) {
    const following = followingSiblings(picture, article, positions);
    if (!following) continue;
    // the credit is the first line after the picture, or the second after its caption
    const [first, second] = following;
    if (!first) continue;
    const firstText = shortText(first, MAX_CAPTION);
    if (isCredit(firstText)) doomed.add(first);
    else if (second && firstText.length <= MAX_CAPTION && isCredit(shortText(second, MAX_CREDIT))) {
      doomed.add(second);
    }
  }
  removeNodes([...doomed]);
}

function isCredit(text: string): boolean {
  if (text.length === 0 || text.length > MAX_CREDIT || !CREDIT.test(text)) return false;
  // names have letters: "24/7" or "1/2" beside a picture is not a credit
  return /©|\(c\)/i.test(text) || text.split('/').every((part) => /\p{L}{2}/u.test(part));
}

/**
 * The element's text when it is at most `max` characters (whitespace collapsed), else its
 * first `max + 1` characters: reading stops there, so a picture followed by the whole rest of
 * the article costs a few nodes, not the article, and a long text is collapsed once for all
 * the pictures before it (nested figures each read what follows them).
 */
function shortText(el: ElementNode, max: number): string {
  const texts: TextNode[] = [];
  let length = 0;
  const read = (node: Node): boolean => {
    if (node.type === 'text') {
      texts.push(node);
      length += node.text.trim().length;
      return length <= max;
    }
    for (const child of node.children) if (!read(child)) return false;
    return true;
  };
  read(el);
  return collapsedPrefix(texts, max + 1);
}

function collectPictures(el: ElementNode, out: ElementNode[]): void {
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (child.tag === 'img' || child.tag === 'picture') out.push(child);
    else collectPictures(child, out);
  }
}

/**
 * The first two elements with text after the picture in document order, climbing out of its
 * wrappers (`figure > div > img + figcaption`, then the credit after the div). Null when text
 * comes first (the picture sits inside a paragraph).
 */
function followingSiblings(
  picture: ElementNode,
  root: ElementNode,
  positions: SiblingPositions,
): ElementNode[] | null {
  const found: ElementNode[] = [];
  let node: ElementNode = picture;
  for (let lift = 0; lift <= MAX_LIFT && found.length < 2; lift++) {
    const parent = node.parent;
    if (!parent) break;
    const start = positions.of(node, parent) + 1;
    const end = Math.min(parent.children.length, start + MAX_SCAN);
    for (let i = start; i < end; i++) {
      if (found.length === 2) break;
      const next = parent.children[i] as Node;
      if (next.type === 'text') {
        if (next.text.trim()) return found.length > 0 ? found : null;
        continue;
      }
      if (shortText(next, 0)) found.push(next);
    }
    if (parent === root) break;
    node = parent;
  }
  return found;
}

/**
 * Each child's index in its parent, counted once per parent: `indexOf` for every picture of a
 * gallery of thousands would read the whole row each time.
 */
class SiblingPositions {
  private readonly byParent = new Map<ElementNode, Map<Node, number>>();

  of(node: Node, parent: ElementNode): number {
    let index = this.byParent.get(parent);
    if (!index) {
      index = new Map(parent.children.map((child, i) => [child, i]));
      this.byParent.set(parent, index);
    }
    return index.get(node) ?? -1;
  }
}
