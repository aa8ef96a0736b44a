/**
 * Captions that repeat their picture's alt text. News CMSs (Arc, WordPress themes, Guardian's
 * templates) fill the `alt` of a picture and the caption under it from the same field, so the
 * Markdown would say the same sentence twice: once as `![alt](src)`, once as the caption. The
 * picture keeps the text; the caption line beside it goes, with a photo credit appended to it
 * ("… Photograph: Name/Agency"), which is no more the story than the caption.
 *
 * A caption is the next element after the picture (its sibling, or its wrapper's) that holds
 * no picture itself and whose text starts with the alt. Only alts long enough to be a sentence
 * are compared: a short alt ("Logo", a name) may open a paragraph of the story by chance.
 *
 * Only the lead picture's caption (a picture before the article's first lines of text): that
 * picture is the template's header image, its caption page furniture. Pictures inside the text
 * are part of it, and so are their captions (a how-to's step photos, a chart explained under
 * it): the Readability corpus keeps those, alt repeated or not (BENCHMARKS.md, issue 14).
 */
import { type ElementNode, removeNodes } from './dom.js';
import { innerText, PICTURES } from './measure.js';

/** An alt shorter than this is a label, not a caption's sentence. */
const MIN_ALT = 20;
/** What a caption may add after the repeated alt: a credit, not more story. */
const MAX_TAIL = 80;
/**
 * A caption is a line. A longer text that repeats the alt is the story's deck, which the CMS
 * also put in the lead picture's alt, and may be the only copy of the deck in the article.
 */
const MAX_CAPTION = 200;
/** Only the lead picture: one shown before this much of the article's text. */
const LEAD = 150;

export function removeRepeatedCaptions(article: ElementNode): void {
  const doomed: ElementNode[] = [];
  // characters of text before the point the walk has reached: past LEAD, no picture leads
  let before = 0;
  const walk = (el: ElementNode): void => {
    // the alt of the last picture among the children seen so far, until a text comes between
    let alt = '';
    for (const child of el.children) {
      if (before >= LEAD) return;
      if (child.type === 'text') {
        const t = child.text.trim();
        before += t.length;
        if (t) alt = '';
        continue;
      }
      const last = lastPictureAlt(child);
      if (last !== null) {
        walk(child);
        alt = last;
        continue;
      }
      if (alt.length < MIN_ALT) {
        walk(child);
        continue;
      }
      const text = innerText(child);
      // an empty element between (a zoom button's label, a spacer) separates nothing
      if (!text) continue;
      if (repeats(text, alt)) doomed.push(child);
      else walk(child);
      alt = '';
    }
  };
  walk(article);
  removeNodes(doomed);
}

function repeats(text: string, alt: string): boolean {
  const t = normalize(text);
  if (t.length > MAX_CAPTION) return false;
  return t.startsWith(alt) && t.length - alt.length <= MAX_TAIL;
}

function normalize(s: string): string {
  return s.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The normalized alt of the element's last picture, null when it holds none. */
function lastPictureAlt(el: ElementNode): string | null {
  if (el.tag === 'img') return normalize(el.attrs.alt ?? '');
  let found: string | null = PICTURES.has(el.tag) ? '' : null;
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    const alt = lastPictureAlt(child);
    if (alt !== null) found = alt;
  }
  return found;
}
