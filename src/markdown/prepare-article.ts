/**
 * Cleans an extracted article (Readability's prepArticle): drops chrome tags, headings
 * styled as chrome, share bars, and containers that look like link lists, galleries or
 * form remnants rather than prose.
 */
import { type ElementNode, removeNodes } from './dom.js';
import {
  classWeight,
  countTag,
  elementChildren,
  elementsByTag,
  hasAncestor,
  innerText,
  textLength,
} from './measure.js';
import type { ExtractFlags } from './scorable.js';
import { TreeStats } from './tree-stats.js';

type CleanFlags = Pick<
  ExtractFlags,
  'weightClasses' | 'cleanConditionally' | 'used' | 'commentsAreContent'
>;

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
const AD_WORDS = /^(ad(vertising|vertisement)?|pub(licité)?|werb(ung)?|广告|Реклама|Anuncio)$/iu;
const LOADING_WORDS = /^((loading|正在加载|Загрузка|chargement|cargando)(…|\.\.\.)?)$/iu;
const SHARE = /share/i;

export function prepareArticle(article: ElementNode, flags: CleanFlags): void {
  removeNodes(elementsByTag(article, ALWAYS_REMOVED));
  // share bars inside the article's top-level blocks
  let stats = new TreeStats();
  const shares: ElementNode[] = [];
  for (const top of elementChildren(article)) {
    for (const el of elementsByTag(top, ANY)) {
      const match = `${el.attrs.class ?? ''} ${el.attrs.id ?? ''}`;
      if (SHARE.test(match) && stats.of(el).length < 500) shares.push(el);
    }
  }
  removeNodes(shares);
  if (flags.cleanConditionally) {
    stats = new TreeStats();
    for (const tag of CONDITIONAL) {
      const found = elementsByTag(article, ONE(tag));
      // innermost first, so that a parent is judged on what survives inside it
      for (let i = found.length - 1; i >= 0; i--) {
        const el = found[i];
        if (el?.parent && shouldRemove(el, tag, flags, stats)) {
          stats.detach(el);
          if (flags.used) flags.used.cleanConditionally = true;
        }
      }
      stats.tidyAll();
    }
  }
  if (flags.weightClasses) {
    const removedHeadings = elementsByTag(article, H1_H2).filter(
      (h) => classWeight(h, flags.commentsAreContent) < 0,
    );
    removeNodes(removedHeadings);
    // a heading's class is weighed for removal only; a kept one changed nothing
    if (flags.used && removedHeadings.length > 0) flags.used.weightClasses = true;
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

/** Readability's _cleanConditionally test, on figures from `stats` (see tree-stats.ts). */
function shouldRemove(el: ElementNode, tag: string, flags: CleanFlags, stats: TreeStats): boolean {
  if (tag === 'table' && isDataTable(el)) return false;
  if (hasAncestor(el, 'code', 0) || insideDataTable(el)) return false;
  if (insideRecipe(el)) return false;
  const s = stats.of(el);
  const textLength = s.length;
  const isList = tag === 'ul' || tag === 'ol' || (textLength > 0 && s.listText / textLength > 0.9);
  const weight = flags.weightClasses ? classWeight(el, flags.commentsAreContent) : 0;
  if (weight !== 0 && flags.used) flags.used.weightClasses = true;
  if (weight < 0) return true;
  if (s.commas >= 10) return false;

  const li = s.li - 100;
  const headingDensity = textLength ? s.headingText / textLength : 0;
  // the longest ad or loading word is far shorter; only short texts need the string
  if (textLength <= 40) {
    const text = innerText(el);
    if (AD_WORDS.test(text) || LOADING_WORDS.test(text)) return true;
  }
  const density = stats.linkDensity(el);
  const inFigure = hasAncestor(el, 'figure', 0);
  const { p, img, input, embeds } = s;
  let remove =
    (!inFigure && img > 1 && p / img < 0.5) ||
    (!isList && li > p) ||
    input > Math.floor(p / 3) ||
    (!isList &&
      !inFigure &&
      headingDensity < 0.9 &&
      textLength < 25 &&
      (img === 0 || img > 2) &&
      density > 0) ||
    (!isList && weight < 25 && density > 0.2) ||
    (weight >= 25 && density > 0.5) ||
    (embeds === 1 && textLength < 75) ||
    embeds > 1;
  // a list of images (a gallery inside the article) is content
  if (isList && remove) {
    for (const child of liveElementChildren(el)) {
      if (liveElementChildren(child).length > 1) return remove;
    }
    if (s.li === img) remove = false;
  }
  return remove;
}

/** Element children still attached (a parent may hold detached ones until tidied). */
function liveElementChildren(el: ElementNode): ElementNode[] {
  return el.children.filter((c): c is ElementNode => c.type === 'element' && c.parent === el);
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

const RECIPE =
  /(?:^|[\s_-])(?:wprm-recipe|recipe-card|easyrecipe|tasty-recipes|mv-create-card|recipe-ingredients|recipe-instructions|recipe-directions|ingredients|directions|instructions)(?:$|[\s_-])/i;
/** A recipe card (schema.org Recipe or the recipe plugins' markup): its lists are the content. */
export function insideRecipe(el: ElementNode): boolean {
  for (let p: ElementNode | null = el; p; p = p.parent) if (marksRecipe(p.attrs)) return true;
  return false;
}

/**
 * Whether these attributes mark a recipe card, kept per attributes object: every candidate
 * asks it of all its ancestors, in every pass, and copies of a tree share their attributes.
 */
const recipeMarks = new WeakMap<Readonly<Record<string, string>>, boolean>();
function marksRecipe(attrs: Readonly<Record<string, string>>): boolean {
  let marks = recipeMarks.get(attrs);
  if (marks === undefined) {
    marks =
      (attrs.itemtype ?? '').includes('schema.org/Recipe') ||
      RECIPE.test(`${attrs.class ?? ''} ${attrs.id ?? ''}`);
    recipeMarks.set(attrs, marks);
  }
  return marks;
}
