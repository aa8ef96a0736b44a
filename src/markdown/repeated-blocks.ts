/**
 * Blocks a page holds twice. Responsive shop templates write the buy box and the product's
 * description once for wide screens and once for narrow ones (`hidden-down-md` beside
 * `hidden-up-md`) and let the style sheet show one; without style sheets both are in the
 * markup, and the content says everything twice. The second copy of a block whose text
 * equals an earlier block's is dropped, whatever the language: it adds no content. Texts are
 * compared without their whitespace: the narrow copy breaks its lines elsewhere (a `<br>`
 * between two text nodes where the wide one has a space).
 *
 * Site builders (Framer, Webflow) do the same with a whole story: one copy per breakpoint,
 * each shown by its own media query. On any page, a repeated block that is a large part of
 * the content (`minShare`) is such a copy; shorter repeats stay there, as stories repeat a
 * line or a recipe's step on purpose and the readers' truths keep both.
 */
import { type ElementNode, removeNodes } from './dom.js';
import { innerText, textFigures } from './measure.js';

const SPACE = /\s+/g;

/**
 * A block shorter than this (characters) is not compared: short lines (a size, a label,
 * "Add to cart") repeat on purpose and say little.
 */
const MIN_BLOCK = 40;
/**
 * With a share asked for, a block shorter than this is never a copy of the page's text: a
 * factbox or a code sample that a documentation page shows twice is under it.
 */
const MIN_COPY = 500;

/**
 * Removes, in place, every block of `content` whose text an earlier block already holds;
 * with `minShare` (0 to 1), only blocks holding that share of the content's text (and
 * MIN_COPY characters) are compared.
 */
export function dropRepeatedBlocks(content: ElementNode, minShare = 0): void {
  const lengths = new Map<ElementNode, number>();
  const nonSpace = new Map<ElementNode, number>();
  const [total] = textLengths(content, lengths, nonSpace);
  const minBlock = minShare > 0 ? Math.max(MIN_COPY, total * minShare) : MIN_BLOCK;
  // blocks by their text's count of non-space characters: a text is built only when two
  // blocks' counts agree (building every block's text costs its depth in copies of the
  // page's text)
  const seen = new Map<number, ElementNode[]>();
  const texts = new Map<ElementNode, string>();
  const textOf = (el: ElementNode): string => {
    let text = texts.get(el);
    if (text === undefined) {
      text = innerText(el).replace(SPACE, '');
      texts.set(el, text);
    }
    return text;
  };
  const doomed: ElementNode[] = [];
  const walk = (el: ElementNode, within: boolean, withinLength: number): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      const length = lengths.get(child) ?? 0;
      if (length < minBlock) continue;
      // a block as long as the one around it is all of its text (a wrapper's only block)
      if (!(within && length === withinLength)) {
        const sameLength = seen.get(nonSpace.get(child) ?? 0);
        if (sameLength?.some((block) => textOf(block) === textOf(child))) {
          doomed.push(child);
          continue;
        }
        if (sameLength) sameLength.push(child);
        else seen.set(nonSpace.get(child) ?? 0, [child]);
      }
      walk(child, true, length);
    }
  };
  walk(content, false, 0);
  removeNodes(doomed);
}

/**
 * Every element's text length in one walk (the sum of its text nodes' collapsed lengths,
 * without the spaces between them) and its count of non-space characters, the same for
 * blocks whose texts differ only in their whitespace.
 */
function textLengths(
  el: ElementNode,
  out: Map<ElementNode, number>,
  nonSpace: Map<ElementNode, number>,
): [number, number] {
  let length = 0;
  let count = 0;
  for (const child of el.children) {
    if (child.type === 'text') {
      const figures = textFigures(child);
      length += figures.length;
      count += figures.solid;
    } else {
      const [l, c] = textLengths(child, out, nonSpace);
      length += l;
      count += c;
    }
  }
  out.set(el, length);
  nonSpace.set(el, count);
  return [length, count];
}
