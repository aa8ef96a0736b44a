/**
 * Teasers of other pages inside an extracted article: the cards a template sets under or
 * beside the story ("more from this section", a portlet of products, a related-posts
 * slider), each a picture or title and an excerpt cut short, linking to the page it is
 * cut from. The cut is the sign: the excerpt's last words outside the links end in an
 * ellipsis ("Auskunft über vergangenes Wetter… [mehr]"), and every link of the card goes to
 * that one page (its picture, its title and its "more" link). A paragraph of the story that
 * trails off into a link has one link, not two to the same page.
 *
 * Only when the article holds two or more such cards and they are a small part of it: on a
 * listing the teasers are the content (list-region.ts, region-items.ts keep those, and
 * their items are never looked into here).
 *
 * Told by punctuation and link targets alone, so it holds in any language.
 */
import { type ElementNode, type Node, removeNodes } from './dom.js';
import { TreeStats } from './tree-stats.js';

const CARD_TAGS = new Set(['div', 'li', 'article', 'dl', 'section']);
/** A card's text (characters) is at least a title and a few words, at most an excerpt. */
const MIN_CARD = 30;
const MAX_CARD = 600;
/** At least this many cards: one is a story's closing line that happens to trail off. */
const MIN_CARDS = 2;
/** The cards together hold at most this share of the article's text. */
const MAX_SHARE = 0.3;
/** Nodes of a card looked at for its links and its last words (a hostile card is not walked whole). */
const NODE_BUDGET = 300;
const ELLIPSIS = /(?:…|\.\.\.)$/;

export function removeTeaserExcerpts(
  article: ElementNode,
  items: ReadonlySet<ElementNode> = new Set(),
): void {
  // lengths summed bottom-up once: a chain of nested blocks is not re-read at every level
  const stats = new TreeStats();
  const cards: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element' || items.has(child)) continue;
      if (isTeaserCard(child, stats.of(child).length)) cards.push(child);
      else walk(child);
    }
  };
  walk(article);
  if (cards.length < MIN_CARDS) return;
  const cardText = cards.reduce((sum, card) => sum + stats.of(card).length, 0);
  if (cardText > MAX_SHARE * stats.of(article).length) return;
  removeNodes(cards);
}

function isTeaserCard(el: ElementNode, length: number): boolean {
  if (!CARD_TAGS.has(el.tag)) return false;
  if (length < MIN_CARD || length >= MAX_CARD) return false;
  const budget = { nodes: NODE_BUDGET };
  const target = oneLinkTarget(el, budget);
  if (target === null || target.links < 2) return false;
  const last = lastWordsOutsideLinks(el, { nodes: NODE_BUDGET });
  return last !== null && ELLIPSIS.test(last);
}

/**
 * The one page all the element's links go to (fragment left out), with how many links;
 * null when they go to several, to none, or the budget runs out first.
 */
function oneLinkTarget(
  el: ElementNode,
  budget: { nodes: number },
): { href: string; links: number } | null {
  let href: string | null = null;
  let links = 0;
  const visit = (node: ElementNode): boolean => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (--budget.nodes < 0) return false;
      if (child.tag === 'a' && child.attrs.href !== undefined) {
        const to = child.attrs.href.replace(/#.*$/, '').trim();
        if (!to || /^(?:javascript|mailto|tel):/i.test(to)) return false;
        if (href !== null && to !== href) return false;
        href = to;
        links++;
      }
      if (!visit(child)) return false;
    }
    return true;
  };
  if (!visit(el) || href === null) return null;
  return { href, links };
}

/** The last non-blank text of the element outside its links, trimmed; null when none. */
function lastWordsOutsideLinks(el: ElementNode, budget: { nodes: number }): string | null {
  for (let i = el.children.length - 1; i >= 0; i--) {
    if (--budget.nodes < 0) return null;
    const child = el.children[i] as Node;
    if (child.type === 'text') {
      const text = child.text.trim();
      if (text) return text;
      continue;
    }
    if (child.tag === 'a') continue;
    const inner = lastWordsOutsideLinks(child, budget);
    if (inner !== null) return inner;
  }
  return null;
}
