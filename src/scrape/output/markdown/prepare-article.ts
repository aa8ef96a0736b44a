/**
 * Cleans an extracted article (Readability's prepArticle): drops chrome tags, headings
 * styled as chrome, share bars, and containers that look like link lists, galleries or
 * form remnants rather than prose.
 */
import { type ElementNode, removeNode, removeNodes } from './dom.js';
import {
  classWeight,
  countTag,
  elementChildren,
  elementsByTag,
  hasAncestor,
  innerText,
  linkDensity,
  textLength,
} from './measure.js';

interface CleanFlags {
  weightClasses: boolean;
  cleanConditionally: boolean;
}

const ALWAYS_REMOVED = new Set([
  'object',
  'embed',
  'footer',
  'link',
  'aside',
  'iframe',
  'input',
  'textarea',
  'select',
  'button',
]);
const CONDITIONAL = ['form', 'fieldset', 'table', 'ul', 'div'];
const ONE = (t: string) => new Set([t]);
const H1_H2 = new Set(['h1', 'h2']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const LISTS = new Set(['ul', 'ol']);
const EMBEDS = new Set(['object', 'embed', 'iframe']);
const AD_WORDS = /^(ad(vertising|vertisement)?|pub(licité)?|werb(ung)?|广告|Реклама|Anuncio)$/iu;
const LOADING_WORDS = /^((loading|正在加载|Загрузка|chargement|cargando)(…|\.\.\.)?)$/iu;
const SHARE = /share/i;

export function prepareArticle(article: ElementNode, flags: CleanFlags): void {
  removeNodes(elementsByTag(article, ALWAYS_REMOVED));
  // share bars inside the article's top-level blocks
  const shares: ElementNode[] = [];
  for (const top of elementChildren(article)) {
    for (const el of elementsByTag(top, ANY)) {
      const match = `${el.attrs.class ?? ''} ${el.attrs.id ?? ''}`;
      if (SHARE.test(match) && textLength(el) < 500) shares.push(el);
    }
  }
  removeNodes(shares);
  if (flags.cleanConditionally) {
    for (const tag of CONDITIONAL) {
      const found = elementsByTag(article, ONE(tag));
      // innermost first, so that a parent is judged on what survives inside it
      for (let i = found.length - 1; i >= 0; i--) {
        const el = found[i];
        if (el?.parent && shouldRemove(el, tag, flags)) removeNode(el);
      }
    }
  }
  if (flags.weightClasses) {
    removeNodes(elementsByTag(article, H1_H2).filter((h) => classWeight(h) < 0));
  }
  removeNodes(
    elementsByTag(article, ONE('p')).filter((p) => countTag(p, MEDIA_IN_P) === 0 && !textLength(p)),
  );
}

const ANY = new Set([
  'div',
  'section',
  'span',
  'ul',
  'p',
  'aside',
  'figure',
  'footer',
  'header',
  'a',
  'li',
]);
const MEDIA_IN_P = new Set(['img', 'embed', 'object', 'iframe', 'picture', 'video']);

function shouldRemove(el: ElementNode, tag: string, flags: CleanFlags): boolean {
  if (tag === 'table' && isDataTable(el)) return false;
  if (hasAncestor(el, 'code', 0) || insideDataTable(el)) return false;
  let isList = tag === 'ul' || tag === 'ol';
  const text = innerText(el);
  if (!isList) {
    let listLength = 0;
    for (const list of elementsByTag(el, LISTS)) listLength += textLength(list);
    isList = text.length > 0 && listLength / text.length > 0.9;
  }
  const weight = flags.weightClasses ? classWeight(el) : 0;
  if (weight < 0) return true;
  if (text.split(/[,，、]/).length - 1 >= 10) return false;

  const p = countTag(el, ONE('p'));
  const img = countTag(el, ONE('img'));
  const li = countTag(el, ONE('li')) - 100;
  const input = countTag(el, ONE('input'));
  let headingLength = 0;
  for (const h of elementsByTag(el, HEADINGS)) headingLength += textLength(h);
  const headingDensity = text.length ? headingLength / text.length : 0;
  let embeds = 0;
  for (const e of elementsByTag(el, EMBEDS)) {
    if (!/youtube|vimeo|dailymotion|player/i.test(e.attrs.src ?? '')) embeds++;
  }
  if (AD_WORDS.test(text) || LOADING_WORDS.test(text)) return true;
  const density = linkDensity(el, text.length);
  const inFigure = hasAncestor(el, 'figure', 0);
  let remove =
    (!inFigure && img > 1 && p / img < 0.5) ||
    (!isList && li > p) ||
    input > Math.floor(p / 3) ||
    (!isList &&
      !inFigure &&
      headingDensity < 0.9 &&
      text.length < 25 &&
      (img === 0 || img > 2) &&
      density > 0) ||
    (!isList && weight < 25 && density > 0.2) ||
    (weight >= 25 && density > 0.5) ||
    (embeds === 1 && text.length < 75) ||
    embeds > 1;
  // a list of images (a gallery inside the article) is content
  if (isList && remove) {
    for (const child of elementChildren(el)) {
      if (elementChildren(child).length > 1) return remove;
    }
    if (countTag(el, ONE('li')) === img) remove = false;
  }
  return remove;
}

function insideDataTable(el: ElementNode): boolean {
  for (let p = el.parent; p; p = p.parent) if (p.tag === 'table' && isDataTable(p)) return true;
  return false;
}

/** Readability's guess whether a table holds data (kept) or page layout (judged like a div). */
export function isDataTable(table: ElementNode): boolean {
  const known = table.memo?.dataTable;
  if (known !== undefined) return known;
  const result = guessDataTable(table);
  table.memo = { ...table.memo, dataTable: result };
  return result;
}

function guessDataTable(table: ElementNode): boolean {
  if (table.attrs.role === 'presentation') return false;
  if (table.attrs.datatable === '0') return false;
  if (table.attrs.summary) return true;
  const children = elementChildren(table);
  if (children.some((c) => c.tag === 'caption' && innerText(c))) return true;
  if (countTag(table, DATA_HINTS) > 0) return true;
  if (countTag(table, ONE('table')) > 0) return false;
  const rows = elementsByTag(table, ONE('tr'));
  let columns = 0;
  for (const row of rows) {
    let n = 0;
    for (const cell of elementChildren(row)) {
      if (cell.tag === 'td' || cell.tag === 'th') n += Number(cell.attrs.colspan) || 1;
    }
    columns = Math.max(columns, n);
  }
  if (rows.length >= 10 || columns > 4) return true;
  return rows.length * columns > 10;
}

const DATA_HINTS = new Set(['col', 'colgroup', 'tfoot', 'thead', 'th']);
