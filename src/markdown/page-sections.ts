/**
 * The page's sections around the extracted text. A service or product-marketing page (an
 * agency's service, a tool's landing page, a course) is a column of sections side by side:
 * a hero, features, steps, figures, questions and answers, each with its heading and a few
 * lines. The Readability-style scorer keeps the section with the most prose, a fifth of the
 * page. When the text the extraction kept lies in one of several sibling sections that are
 * prose rather than links (a menu, a footer's columns, teaser lists are links), and those
 * sections hold several times the kept text, they are the content.
 *
 * A block of teasers beside a story (two or more headings that link to other pages, each
 * with its excerpt) is prose by its link share, but it is other pages: not a section. The
 * page's `og:type` is not asked: WordPress themes call every page an article, service
 * pages too, and a story's neighbours are told apart by the teasers' linked headings and by
 * the sections having to hold twice the kept text (WIDE).
 *
 * Told by shape alone (text and link text of sibling blocks), so it holds in any language.
 */
import type { ElementNode } from './dom.js';
import { keptTextMarks, textFigures } from './measure.js';

/** A section holds at least this many characters of text. */
const MIN_SECTION = 80;
/** A section's links hold under this share of its text. */
const MAX_LINKS = 0.3;
/** At least this many sections. */
const MIN_SECTIONS = 3;
/** This share of the kept text lies inside one of them. */
const INSIDE_SHARE = 0.8;
/** No section beside the kept text's holds more than this share of the sections' text. */
const ONE_PART = 0.6;
/** The sections replace the extraction when they hold this many times its text. */
const WIDE = 2;
/**
 * The children of the kept text's own block replace it when they hold this many times its
 * text (sectionsWithin)...
 */
const WITHIN = 1.2;
/** ...of which the sections the scorer left out hold at least this share. */
const ADDED = 0.2;
/**
 * A section left out holds this many characters per heading: a heading over its prose, not
 * a stack of teasers' titles over a line each, nor a newsletter box's line over its form.
 */
const PER_HEADING = 100;

interface Figures {
  text: number;
  kept: number;
  links: number;
  /** Text inside links to other pages (not `#…` toggles of an accordion or tabs). */
  away: number;
  /** Headings whose text is a link to another page: the titles of teasers. */
  linkedHeadings: number;
  /** Headings of any kind. */
  headings: number;
}

/** The sections, and how many times the kept text they must still hold once trimmed. */
export interface Sections {
  sections: ElementNode[];
  wide: number;
  /** The sections the extraction left out, when the others held its text (sectionsWithin). */
  added?: Set<ElementNode>;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** A block with this many linked headings is a list of teasers, not a section of the page. */
const TEASERS = 2;

/**
 * The sibling sections of `body` (chrome removed; not copies) around the extracted content
 * `kept`, in document order, or null when there are none that hold WIDE times its text.
 */
export function sectionsAround(kept: ElementNode, body: ElementNode): Sections | null {
  const { marks, length: keptText } = keptTextMarks(kept);
  if (keptText === 0) return null;

  const figures = new Map<ElementNode, Figures>();
  const measure = (el: ElementNode, inLink: boolean, inAway: boolean): Figures => {
    const href = el.tag === 'a' ? (el.attrs.href ?? '') : '';
    const link = inLink || Boolean(href);
    const away = inAway || (Boolean(href) && !href.startsWith('#'));
    const own: Figures = {
      text: 0,
      kept: 0,
      links: 0,
      away: 0,
      linkedHeadings: 0,
      headings: 0,
    };
    for (const child of el.children) {
      if (child.type === 'text') {
        const f = textFigures(child);
        own.text += f.length;
        if (link) own.links += f.length;
        if (away) own.away += f.length;
        if (marks.has(f)) own.kept += f.length;
        continue;
      }
      const inner = measure(child, link, away);
      own.text += inner.text;
      own.kept += inner.kept;
      own.links += inner.links;
      own.away += inner.away;
      own.linkedHeadings += inner.linkedHeadings;
      own.headings += inner.headings;
    }
    if (HEADINGS.has(el.tag) && own.text > 0) {
      own.headings++;
      if (own.away >= 0.5 * own.text) own.linkedHeadings++;
    }
    figures.set(el, own);
    return own;
  };
  measure(body, false, false);

  // the path down to the smallest block that holds the kept text
  const path: ElementNode[] = [body];
  for (let el: ElementNode | undefined = body; el; ) {
    let next: ElementNode | undefined;
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if ((figures.get(child)?.kept ?? 0) >= INSIDE_SHARE * keptText) next = child;
    }
    if (next) path.push(next);
    el = next;
  }
  for (let i = path.length - 2; i >= 0; i--) {
    const holder = path[i + 1] as ElementNode;
    const sections: ElementNode[] = [];
    let text = 0;
    let largest = 0;
    for (const child of (path[i] as ElementNode).children) {
      if (child.type !== 'element') continue;
      const f = figures.get(child);
      if (!f) continue;
      if (
        child === holder ||
        (isSection(child) &&
          f.text >= MIN_SECTION &&
          f.links < MAX_LINKS * f.text &&
          f.linkedHeadings < TEASERS)
      ) {
        sections.push(child);
        text += f.text;
        if (child !== holder) largest = Math.max(largest, f.text);
      }
    }
    // one section holding most of the text is another part of the page (a story's
    // comments under it), not one more of a column of like sections
    if (largest > ONE_PART * text) continue;
    if (sections.length >= MIN_SECTIONS && text >= WIDE * keptText) return { sections, wide: WIDE };
  }
  return sectionsWithin(path[path.length - 1] as ElementNode, keptText, figures);
}

/**
 * The children of the smallest block holding the kept text, when that text is spread over
 * several of them (the scorer joined some bands of a column of them) and the ones it left
 * out are headed prose: a band named like chrome that the class weights keep out (a visit's
 * address, a media band's lines), a band whose text is not in paragraphs. Each one left out
 * has a heading, MIN_SECTION characters and PER_HEADING per heading, under MAX_LINKS of
 * links and no teaser titles; together they hold ADDED of the kept text, and all the
 * children WITHIN times it. Menus and footers are link lists, newsletter boxes a heading
 * over a line (chrome removal takes their form), teaser rows titles over a line each.
 */
function sectionsWithin(
  holder: ElementNode,
  keptText: number,
  figures: ReadonlyMap<ElementNode, Figures>,
): Sections | null {
  const sections: ElementNode[] = [];
  let holding = 0;
  let text = 0;
  let largest = 0;
  let added = 0;
  const leftOut = new Set<ElementNode>();
  for (const child of holder.children) {
    if (child.type !== 'element') continue;
    const f = figures.get(child);
    if (!f) continue;
    if (f.kept > 0) {
      holding++;
      sections.push(child);
      text += f.text;
      continue;
    }
    if (
      f.text >= MIN_SECTION &&
      f.headings > 0 &&
      f.text >= PER_HEADING * f.headings &&
      f.links < MAX_LINKS * f.text &&
      f.linkedHeadings === 0
    ) {
      sections.push(child);
      leftOut.add(child);
      text += f.text;
      added += f.text;
      largest = Math.max(largest, f.text);
    }
  }
  if (holding < 2 || sections.length < MIN_SECTIONS || added < ADDED * keptText) return null;
  if (largest > ONE_PART * text) return null;
  return text >= WITHIN * keptText ? { sections, wide: WITHIN, added: leftOut } : null;
}

/**
 * Classless divs side by side are the page's layout (its columns and rows, a notice in each),
 * as in list-region.ts; a section is any other block, or a div the template named.
 */
function isSection(el: ElementNode): boolean {
  return el.tag !== 'div' || Boolean(el.attrs.class);
}
