/**
 * A product grid's cards (product-grid.ts) set some of their facts apart from screen
 * readers: the star rating is an icon whose text is `aria-hidden` ("4.7 out of 5 stars")
 * beside a count, the price a visible copy `aria-hidden` beside a screen-reader-only twin.
 * `aria-hidden` hides nothing on screen, so inside a card such text is what a reader sees;
 * elsewhere (menus, carousels' copies of whole slides) it stays hidden as boilerplate.ts
 * reads it. The screen-reader twin is not always known by its class (a hashed class, an
 * `sr-text`), so hidden text whose words a sibling read by screen readers mostly says
 * already (case aside: the twin may be reworded, "ad by" beside "Ad from") stays hidden: a
 * price shown once stays once.
 */
import type { ElementNode } from './dom.js';
import { innerText, textLengthUpTo } from './measure.js';

/** Elements visited under one grid at most (hostile sizes). */
const MAX_VISITED = 20_000;
/** An `aria-hidden` fact of a card is short: a rating, a count, a price, a badge. */
const FACT_TEXT = 80;
const STYLE_HIDDEN = /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/**
 * Drops `aria-hidden` from the short, link-free elements inside the cards of `grids`
 * (never a card itself: a carousel marks its cloned slides so), in place.
 */
export function showCardHiddenText(grids: readonly ElementNode[]): void {
  for (const grid of grids) {
    let visited = 0;
    const walk = (el: ElementNode, depth: number): void => {
      for (const child of el.children) {
        if (child.type !== 'element' || ++visited > MAX_VISITED) continue;
        if (child.attrs['aria-hidden'] === 'true') {
          // a card's own element (depth 0) marked hidden is a carousel's copy of a card
          if (depth > 0 && isCardFact(child)) delete child.attrs['aria-hidden'];
          else continue;
        }
        walk(child, depth + 1);
      }
    };
    walk(grid, 0);
  }
}

/** Hidden from screen readers only, short, and holding no link (a copy of a card would). */
function isCardFact(el: ElementNode): boolean {
  const a = el.attrs;
  if (a.hidden !== undefined || (a.style && STYLE_HIDDEN.test(a.style))) return false;
  const length = textLengthUpTo(el, FACT_TEXT + 1);
  return length > 0 && length <= FACT_TEXT && !holdsLink(el) && !saidBeside(el);
}

const WORD = /[\p{L}\p{N}]+/gu;
/** Text of the siblings read for a twin at most. */
const SIBLING_TEXT = 400;

/** A twin says at least this share of the hidden text's words. */
const TWIN_WORDS = 0.5;

/** Whether the element's siblings that screen readers read say most words of its text. */
function saidBeside(el: ElementNode): boolean {
  const parent = el.parent;
  if (!parent) return false;
  const words = innerText(el).toLowerCase().match(WORD);
  if (!words) return false;
  let beside = '';
  for (const sibling of parent.children) {
    if (sibling === el || beside.length > SIBLING_TEXT) continue;
    if (sibling.type === 'element' && sibling.attrs['aria-hidden'] === 'true') continue;
    if (sibling.type === 'element' && textLengthUpTo(sibling, SIBLING_TEXT) >= SIBLING_TEXT)
      continue;
    beside += ` ${innerText(sibling).toLowerCase()}`;
  }
  const said = new Set(beside.match(WORD) ?? []);
  let shared = 0;
  for (const word of words) if (said.has(word)) shared++;
  return shared >= TWIN_WORDS * words.length;
}

/** Elements looked through for a link at most: a fact is a few spans deep. */
const LINK_LOOK = 200;

function holdsLink(el: ElementNode): boolean {
  const stack: ElementNode[] = [el];
  for (let seen = 0; stack.length > 0 && seen < LINK_LOOK; seen++) {
    const next = stack.pop() as ElementNode;
    for (const child of next.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'a') return true;
      stack.push(child);
    }
  }
  return stack.length > 0;
}
