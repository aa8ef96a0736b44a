/**
 * Second-stage trimming of an extracted article, after trafilatura's idea that metadata
 * around the text is not the text: captions and photo credits, datelines and bylines,
 * "related"/"read more" link blocks and author boxes. Each rule needs both a widely-used
 * class/id convention and a short or link-heavy element, so prose is never dropped by
 * its class name alone.
 *
 * `<figcaption>` itself is kept: the Readability corpus counts captions as content, and
 * dropping them there cost 0.977 → 0.973 for a 0.001 gain on human-annotated articles;
 * other elements named like captions (photo credits, "Image: GETTY") are dropped, which
 * gained 0.955 → 0.970 on articles.
 */
import { discardNamedBoilerplate } from './discard.js';
import { type ElementNode, removeNodes } from './dom.js';
import { removeEdgeBlocks } from './edge-blocks.js';
import {
  holdsPicture,
  innerText,
  linkDensity,
  opensParagraph,
  textLength,
  textLengthUpTo,
} from './measure.js';
import { removePictureCredits } from './picture-credits.js';
import { insideRecipe } from './prepare-article.js';
import { removeRelatedLinks } from './related-links.js';
import { removeRepeatedCaptions } from './repeated-captions.js';
import { NO_SITE, type Site } from './site-labels.js';
import { removeTeaserExcerpts } from './teaser-excerpts.js';

/** Caption conventions; "legend" (a whole word) is the French and Swiss CMSs' caption (légende). */
const CAPTION =
  /(?<!no[-_]?)caption|credit|copyright|photo-?info|image-?info|(?:^|[\s_-])legend(?:$|[\s_-])/i;
const METADATA =
  /(?:^|[\s_-])(?:date|dates|time|timestamp|published|updated|dateline|byline|bylines|author|authors|posted|meta|article-?meta|post-?meta|entry-?meta)(?:$|[\s_-])/i;
/** The section a story is filed under, printed as a kicker by its headline. */
const KICKER = /(?:^|[\s_-])(?:category|categories|kicker|rubrik)(?:$|[\s_-])/i;
const RELATED =
  /related|recommend|read-?more|more-?stories|trending|newsletter|promo|author-?bio|about-?(?:the-?)?author|tags|toolbar|reprint|text-?size|most-?popular|outbrain|taboola/i;

/**
 * `items`: the elements that are a list's items when the article is a list (list-region.ts):
 * neither their names nor their short lines make them boilerplate. `wholeItems`: nor the
 * named parts inside them (a listing's `title-metadata`, its `ratings-container`).
 */
export function trimArticle(
  article: ElementNode,
  site: Site = NO_SITE,
  items: ReadonlySet<ElementNode> = new Set(),
  wholeItems = false,
): void {
  const doomed: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (isMetadata(child)) doomed.push(child);
      else walk(child);
    }
  };
  walk(article);
  removeNodes(doomed);
  removeRelatedLinks(article);
  removeTeaserExcerpts(article, items);
  // a named element holding more than this share of the article is the text's own wrapper
  discardNamedBoilerplate(article, 0.4, items, wholeItems);
  removeEdgeBlocks(article, site, items);
  removeRepeatedCaptions(article);
  removePictureCredits(article);
}

const DATELINE_TAGS = new Set(['p', 'div', 'span']);
/** "Published 3 May…", "Updated: …", "Aktualisiert am …" lines above or below the text. */
const DATELINE =
  /^(?:published|posted|updated|last updated|first published|originally published|veröffentlicht|aktualisiert|zuletzt aktualisiert|stand\s*:|publié|mis à jour|publicado|actualizado|pubblicato|aggiornato)(?!\p{L})/iu;

/**
 * Page controls named as such: print links and show/hide toggles ("Drucken", "Quellen
 * ausblenden", "Bild anzeigen"). Their short text is a button's label, not the story's.
 */
const CONTROL = /(?:^|[\s_-])print(?:$|[\s_-])|toggle/i;

function isMetadata(el: ElementNode): boolean {
  if (isTeaserBox(el)) return true;
  if (isAuthorProfile(el)) return true;
  const named = `${el.attrs.class ?? ''} ${el.attrs.id ?? ''}`;
  if (named.length > 1 && CONTROL.test(named) && isControlLabel(el)) return true;
  if (DATELINE_TAGS.has(el.tag) && textLengthUpTo(el, 120) < 120 && DATELINE.test(innerText(el))) {
    return true;
  }
  // a date on its own line is metadata; inside a sentence it is text
  // a recipe card's times (preparation, baking) are the recipe's, not the page's dates
  if (el.tag === 'time') return !insideProse(el) && !insideRecipe(el);
  const match = `${el.attrs.class ?? ''} ${el.attrs.id ?? ''}`;
  if (match.length < 2 || el.tag === 'p' || el.tag === 'a') return false;
  if (CAPTION.test(match) && el.tag !== 'figcaption') return textLengthUpTo(el, 400) < 400;
  if (METADATA.test(match)) return textLengthUpTo(el, 150) < 150 && !opensParagraph(el);
  // a story's section kicker ("A-Frauen" over the headline); in a table a category is data
  if (KICKER.test(match) && el.tag !== 'td' && el.tag !== 'th') {
    const length = textLength(el);
    return length > 0 && length < 60 && !holdsPicture(el);
  }
  if (RELATED.test(match)) {
    const length = textLength(el);
    return length < 300 || linkDensity(el, length) > 0.4;
  }
  return false;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * The article's author as the page marks them up (schema.org microdata: an item that is the
 * `author` or `creator` property), when the item says more than a name: an author box with a
 * line about the person, whatever the plugin calls its classes (`saboxplugin-wrap`). A name
 * alone (a forum post's poster, a byline) is under AUTHOR_PROFILE and stays.
 */
const AUTHOR_PROP = /^(?:author|creator)$/i;
/** Characters: a name and a role are shorter; a line about the person is longer. */
const AUTHOR_PROFILE = 100;
/** An "author" item longer than this holds the text itself (a post marked up as its author's). */
const MAX_AUTHOR_PROFILE = 1000;

function isAuthorProfile(el: ElementNode): boolean {
  if (!('itemscope' in el.attrs)) return false;
  const props = (el.attrs.itemprop ?? '').split(/\s+/);
  if (!props.some((p) => AUTHOR_PROP.test(p))) return false;
  const length = textLengthUpTo(el, MAX_AUTHOR_PROFILE);
  return length >= AUTHOR_PROFILE && length < MAX_AUTHOR_PROFILE;
}

/**
 * A teaser box: a heading, a line of blurb and a button ("Entdecke weitere Homestorys … [Mehr
 * Homestorys]"). The button (a link styled as one) says the box sends the reader elsewhere;
 * the box is short, so a section of the story that ends with a download button is not one.
 */
const TEASER_BOX = 300;
const BOXES = new Set(['div', 'section', 'aside']);
const BUTTON = /(?:^|[\s_-])(?:btn|button|cta)(?:$|[\s_-])/i;

function isTeaserBox(el: ElementNode): boolean {
  if (!BOXES.has(el.tag)) return false;
  const last = lastElement(el);
  if (last?.tag !== 'a' || !BUTTON.test(last.attrs.class ?? '')) return false;
  const length = textLength(el);
  if (length === 0 || length > TEASER_BOX) return false;
  return el.children.some((c) => c.type === 'element' && HEADINGS.has(c.tag));
}

/** The last element child, skipping blank text. */
function lastElement(el: ElementNode): ElementNode | null {
  for (let i = el.children.length - 1; i >= 0; i--) {
    const c = el.children[i];
    if (c?.type === 'element') return c;
    if (c?.text.trim()) return null;
  }
  return null;
}

/** A button's label: a little text, no picture (a toggle around an image opens the image). */
function isControlLabel(el: ElementNode): boolean {
  if (HEADINGS.has(el.tag)) return false;
  const length = textLength(el);
  return length > 0 && length < 40 && !holdsPicture(el);
}

const PROSE = new Set(['p', 'li', 'td', 'dd', 'blockquote']);

/** True when `time` sits in a paragraph that has more to say than the date itself. */
function insideProse(time: ElementNode): boolean {
  let depth = 0;
  for (let p = time.parent; p && depth < 3; p = p.parent, depth++) {
    if (PROSE.has(p.tag)) return textLength(p) > textLength(time) + 40;
  }
  return false;
}
