/**
 * When a fetched page plainly needs JavaScript (the engine choice of `renderWhenNeeded`):
 *
 *   - it is HTML, and
 *   - its body has almost no text (under NEEDS_JS_TEXT characters once scripts, styles,
 *     templates and tags are gone), and
 *   - it says it is an application: an empty mount point (`id="root"`, `"app"`, `"__next"`,
 *     `"__nuxt"`, `"svelte"`, `ng-app`/`<app-root>`), or a `<noscript>` asking for JavaScript.
 *
 * A short page without those signs (a tiny static page, an error page) is not rendered: that
 * would cost the caller a render for nothing. A page with text is never rendered.
 */

/** Characters of visible text below which a page counts as "almost no text". */
export const NEEDS_JS_TEXT = 200;
/** Only the start of a huge page is looked at: an app shell is small. */
const SCAN_CHARS = 512 * 1024;

const HTML_TYPE = /^(text\/html|application\/xhtml\+xml)/i;
const MOUNT_POINT =
  /<(div|main|section|body)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|svelte|main-app)\b[^>]*>\s*<\/\1>|<app-root\b|\bng-app\b|\bdata-reactroot\b/i;
const NOSCRIPT_ASKS = /<noscript\b[^>]*>[\s\S]{0,2000}?(enable|turn on|requires?)\s+javascript/i;

/** What is not visible text: hidden blocks, comments, tags, entities, runs of white space. */
const NOT_TEXT =
  /<(script|style|template|noscript|svg)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->|<[^>]+>|&[a-z#0-9]+;|\s+/gi;
const BODY_START = /<body\b[^>]*>/i;

/**
 * Characters of the page's visible text (white space collapsed, entities counted as a space),
 * counted up to `atMost`: callers that only compare with a bound stop reading there. One
 * pass from the body's start tag (the whole page without one) to the end, on the event loop for every fetched page (block detection runs on
 * each), where rewriting the page five times took about a millisecond.
 */
export function visibleTextLength(html: string, atMost = Number.POSITIVE_INFINITY): number {
  const start = BODY_START.exec(html);
  const body = start ? html.slice(start.index + start[0].length) : html;
  let length = 0;
  let gap = false;
  let last = 0;
  const text = (end: number) => {
    if (end <= last) return;
    if (gap && length > 0) length++;
    length += end - last;
  };
  NOT_TEXT.lastIndex = 0;
  for (let m = NOT_TEXT.exec(body); m !== null; m = NOT_TEXT.exec(body)) {
    text(m.index);
    if (length >= atMost) return atMost;
    gap = true;
    last = NOT_TEXT.lastIndex;
  }
  text(body.length);
  return Math.min(length, atMost);
}

export function needsJavascript(page: { html: string; contentType?: string | null }): boolean {
  if (page.contentType && !HTML_TYPE.test(page.contentType)) return false;
  const html = page.html.slice(0, SCAN_CHARS);
  // The signs first: one regular-expression scan, where measuring the text rewrites the page
  // five times. Most pages show no sign, and this runs on the event loop for every fetch.
  if (!MOUNT_POINT.test(html) && !NOSCRIPT_ASKS.test(html)) return false;
  return visibleTextLength(html, NEEDS_JS_TEXT) < NEEDS_JS_TEXT;
}
