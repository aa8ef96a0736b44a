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

import { visibleTextLength } from './visible-text.js';

/** Characters of visible text below which a page counts as "almost no text". */
export const NEEDS_JS_TEXT = 200;
/** Only the start of a huge page is looked at: an app shell is small. */
const SCAN_CHARS = 512 * 1024;

const HTML_TYPE = /^(text\/html|application\/xhtml\+xml)/i;
const MOUNT_POINT =
  /<(div|main|section|body)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|svelte|main-app)\b[^>]*>\s*<\/\1>|<app-root\b|\bng-app\b|\bdata-reactroot\b/i;
const NOSCRIPT_ASKS = /<noscript\b[^>]*>[\s\S]{0,2000}?(enable|turn on|requires?)\s+javascript/i;

export function needsJavascript(page: { html: string; contentType?: string | null }): boolean {
  if (page.contentType && !HTML_TYPE.test(page.contentType)) return false;
  const html = page.html.slice(0, SCAN_CHARS);
  // The signs first: one regular-expression scan, cheaper than counting the text. Most pages
  // show no sign, and this runs on the event loop for every fetch.
  if (!MOUNT_POINT.test(html) && !NOSCRIPT_ASKS.test(html)) return false;
  return visibleTextLength(html, NEEDS_JS_TEXT) < NEEDS_JS_TEXT;
}
