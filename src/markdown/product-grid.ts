/**
 * Product grids: on a shop's collection or category page the content is the grid of items,
 * each a link with the item's name and its price. The items say little (a name, a price, a
 * line of teaser), so the Readability-style scorer takes a block of prose beside them (a
 * privacy notice, a category's SEO text, a filter panel's help) and leaves the grid out.
 *
 * A grid is recognised by shape and prices alone: MIN_ITEMS or more sibling blocks of one
 * shape (as list-region.ts reads shapes), each with a link, most of them holding a price
 * (a number beside a currency sign or code), holding most of their parent's text. Page
 * words are never read, so any language is served.
 */
import type { ElementNode, TextFigures } from './dom.js';
import { textFigures } from './measure.js';

/** A grid has at least this many items of one shape. */
const MIN_ITEMS = 4;
/** An item holds at most this many characters of text on average: a card, not a section. */
const ITEM_TEXT = 400;
/** At least this share of the items shows a price. */
const PRICED_SHARE = 0.6;
/** The items hold at least this share of the grid's text (the rest: its heading, a pager). */
const ITEMS_SHARE = 0.6;

/**
 * A number beside a currency sign or an ISO 4217 code of a common currency, either side:
 * `$21.00`, `21,00 €`, `EUR 355.58`, `1 299 Kč`.
 */
const SIGNS = '[$€£¥₹₽₩₺₪₫฿₴₱]';
const CODES =
  '(?:USD|EUR|GBP|CHF|JPY|CAD|AUD|SEK|NOK|DKK|PLN|CZK|HUF|RON|INR|BRL|MXN|CNY|RUB|TRY|ZAR|NZD|SGD|HKD|Kč|zł|kr|лв|руб|Ft|lei)';
const CURRENCY = `(?:${SIGNS}|(?<![\\p{L}])${CODES}(?![\\p{L}]))`;
const PRICE = new RegExp(`${CURRENCY}\\s?\\d|\\d\\s?${CURRENCY}`, 'u');
/** Templates set the sign and the amount in elements of their own (`<span>$</span>30.00`). */
const ENDS_IN_CURRENCY = new RegExp(`${CURRENCY}$`, 'u');
const STARTS_WITH_CURRENCY = new RegExp(`^${CURRENCY}`, 'u');
const CURRENCY_ALL = new RegExp(CURRENCY, 'gu');

interface Figures {
  text: number;
  link: boolean;
  price: boolean;
  /** Cards of the grids in the element's subtree. */
  cards: number;
}

/** A product grid: its element (not a copy) and the number of its cards. */
export interface ProductGrid {
  el: ElementNode;
  cards: number;
}

/** The grid of `body` with the most text, or null when the page shows none. */
export function findProductGrid(body: ElementNode): ProductGrid | null {
  return findProductGrids(body).best;
}

/**
 * The page's grids together: the one with the most text, and the cards and the number of
 * all of them (a grid of grids counted once, by whichever reading finds more cards). A
 * collection often sets its items in several grids (one per sub-category), none of them
 * long; a product page's grids are a row or two of related items.
 */
export interface PageGrids {
  best: ProductGrid | null;
  cards: number;
  /** The grids counted, in document order. */
  grids: ElementNode[];
}

export function findProductGrids(body: ElementNode): PageGrids {
  let best: ProductGrid | null = null;
  let bestText = 0;
  // the grids counted, a grid of grids among them before the grids inside it (its parts)
  const counted: ElementNode[] = [];
  // how the last text (in document order) ended: a price split over two elements
  let tail: 'currency' | 'digit' | 'other' = 'other';
  const priced = (text: string, f: TextFigures): boolean => {
    // a price tag is the price and a word or two ("From $599", "12,99 € / Stk."): a line of
    // prose that quotes an amount ("free shipping on orders $40+") is not one
    if (f.length > PRICE_TAG) {
      tail = 'other';
      return false;
    }
    const t = text.trim();
    // most short texts (labels, link texts) hold no digit: one cheap test before the patterns
    const digits = DIGIT.test(t);
    const found = digits
      ? (PRICE.test(t) && t.replace(AMOUNT, '').replace(CURRENCY_ALL, '').length <= PRICE_WORDS) ||
        (tail === 'currency' && DIGIT.test(t[0] ?? ''))
      : tail === 'digit' && STARTS_WITH_CURRENCY.test(t);
    tail =
      digits && DIGIT.test(t[t.length - 1] ?? '')
        ? 'digit'
        : t.length <= SIGN_TEXT && ENDS_IN_CURRENCY.test(t)
          ? 'currency'
          : 'other';
    return found;
  };
  const walk = (el: ElementNode): Figures => {
    const own: Figures = {
      text: 0,
      link: el.tag === 'a' && Boolean(el.attrs.href),
      price: false,
      cards: 0,
    };
    // only an element with enough children can be a grid: the others keep no list
    const items: { el: ElementNode; figures: Figures }[] | null =
      el.children.length >= MIN_ITEMS ? [] : null;
    for (const child of el.children) {
      if (child.type === 'text') {
        const f = textFigures(child);
        own.text += f.length;
        if (f.length > 0 && priced(child.text, f)) own.price = true;
        continue;
      }
      const figures = walk(child);
      own.text += figures.text;
      own.link ||= figures.link;
      own.price ||= figures.price;
      own.cards += figures.cards;
      items?.push({ el: child, figures });
    }
    if (items && own.price) {
      const cards = gridCards(own, items);
      if (cards > 0 && own.text > bestText) {
        best = { el, cards };
        bestText = own.text;
      }
      if (cards > own.cards) {
        own.cards = cards;
        counted.push(el);
      }
    }
    return own;
  };
  const page = walk(body);
  const outer = new Set(counted);
  const grids = counted.filter((el) => {
    for (let p = el.parent; p; p = p.parent) if (outer.has(p)) return false;
    return true;
  });
  return { best, cards: page.cards, grids };
}

const DIGIT = /\d/;
/** A price tag's text is at most this long, and this much of it is not the amount. */
const PRICE_TAG = 40;
const PRICE_WORDS = 12;
/** A sign set apart from its amount stands alone or nearly ("$", "US $", "From €"). */
const SIGN_TEXT = 8;
const AMOUNT = /[\d.,'\s\u00a0\u202f]+/g;

/** The number of cards of the grid's shape among `items`, 0 when they are no grid. */
function gridCards(own: Figures, items: { el: ElementNode; figures: Figures }[]): number {
  if (items.length < MIN_ITEMS) return 0;
  const shapes = new Map<string, { count: number; priced: number; text: number }>();
  for (const { el, figures } of items) {
    if (!figures.link || figures.text === 0) continue;
    const key = shapeOf(el);
    if (key === null) continue;
    const shape = shapes.get(key) ?? { count: 0, priced: 0, text: 0 };
    shape.count++;
    if (figures.price) shape.priced++;
    shape.text += figures.text;
    shapes.set(key, shape);
  }
  for (const shape of shapes.values()) {
    if (
      shape.count >= MIN_ITEMS &&
      shape.text <= ITEM_TEXT * shape.count &&
      shape.priced >= PRICED_SHARE * shape.count &&
      shape.text >= ITEMS_SHARE * own.text
    ) {
      return shape.count;
    }
  }
  return 0;
}

const ITEM_TAGS = new Set(['li', 'article', 'tr', 'div', 'section']);
const FIRST_CLASS = /\S+/;

/** Tag and first class, digits left out (list-region.ts's shape, divs without class too). */
function shapeOf(el: ElementNode): string | null {
  const cls = FIRST_CLASS.exec(el.attrs.class ?? '')?.[0].replace(/\d+/g, '') ?? '';
  if (!cls && !ITEM_TAGS.has(el.tag)) return null;
  return `${el.tag} ${cls}`;
}
