/**
 * HTML → Markdown of a page's main content (contract 2.15). Pure and synchronous.
 *
 * Pipeline: htmlparser2 → light tree → chrome removal → Readability-style extraction
 * (retried with fewer heuristics when it finds too little) → hand-written serializer.
 * A page where extraction finds too little falls back to the cleaned whole body.
 */
import { removeChrome } from './boilerplate.js';
import { cloneElement } from './clone.js';
import { type ElementNode, findFirst, parseDocument } from './dom.js';
import { type ExtractFlags, grabArticle } from './extract.js';
import { textLength } from './measure.js';
import { MarkdownWriter, type UrlResolver } from './serialize.js';
import { trimArticle } from './trim-article.js';

/** An article shorter than this (characters of text) triggers the next, laxer attempt. */
const ENOUGH_TEXT = 500;
/** Below this, extraction "found too little" and the whole cleaned body is used. */
const TOO_LITTLE_TEXT = 140;

const ATTEMPTS: ExtractFlags[] = [
  { stripUnlikely: true, weightClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: true, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: false, cleanConditionally: true },
  { stripUnlikely: false, weightClasses: false, cleanConditionally: false },
];

/** Never throws: returns '' for empty or unusable input, best effort otherwise. */
export function htmlToMarkdown(html: string, pageUrl: string): string {
  try {
    if (typeof html !== 'string' || html.length === 0) return '';
    return convert(html, pageUrl);
  } catch {
    return '';
  }
}

function convert(html: string, pageUrl: string): string {
  const doc = parseDocument(html);
  const body = findFirst(doc.root, 'body') ?? doc.root;
  const resolver = urlResolver(pageUrl, doc.baseHref);
  removeChrome(body, textLength(body));

  let best: ElementNode | null = null;
  let bestLength = -1;
  let last: Required<ExtractFlags> | null = null;
  for (const attempt of ATTEMPTS) {
    // a retry that only turns off flags the last pass never acted on would repeat it
    if (last && !differsInUsedFlag(last, attempt)) continue;
    const flags: Required<ExtractFlags> = {
      ...attempt,
      used: { stripUnlikely: false, weightClasses: false, cleanConditionally: false },
    };
    const article = grabArticle(cloneElement(body), doc.title, flags);
    last = flags;
    trimArticle(article);
    const length = textLength(article);
    if (length > bestLength) {
      best = article;
      bestLength = length;
    }
    if (length >= ENOUGH_TEXT) break;
  }
  const chosen = best && bestLength >= TOO_LITTLE_TEXT ? best : wholeBody(body);
  return new MarkdownWriter(resolver).render(chosen);
}

function differsInUsedFlag(ran: Required<ExtractFlags>, next: ExtractFlags): boolean {
  return (
    (ran.stripUnlikely !== next.stripUnlikely && ran.used.stripUnlikely) ||
    (ran.weightClasses !== next.weightClasses && ran.used.weightClasses) ||
    (ran.cleanConditionally !== next.cleanConditionally && ran.used.cleanConditionally)
  );
}

/** The fallback: the body without page chrome (header, footer, asides). */
function wholeBody(body: ElementNode): ElementNode {
  const walk = (el: ElementNode): void => {
    el.children = el.children.filter(
      (c) =>
        c.type !== 'element' || (c.tag !== 'header' && c.tag !== 'footer' && c.tag !== 'aside'),
    );
    for (const c of el.children) if (c.type === 'element') walk(c);
  };
  walk(body);
  return body;
}

/** Resolves against `<base href>` (itself resolved against the page URL), then the page URL. */
function urlResolver(pageUrl: string, baseHref: string | null): UrlResolver {
  let base: URL | null = null;
  try {
    base = new URL(pageUrl);
  } catch {
    base = null;
  }
  if (baseHref) {
    try {
      base = new URL(baseHref, base ?? undefined);
    } catch {
      // an unusable <base> is ignored, as browsers do
    }
  }
  return (url) => {
    try {
      return new URL(url, base ?? undefined).href;
    } catch {
      return null;
    }
  };
}
