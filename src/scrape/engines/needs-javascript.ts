/**
 * When a fetched page is an application shell, to be rendered after all (the engine choice of
 * `renderWhenNeeded`, the Firecrawl door's default). A shell is a page whose content its
 * scripts have yet to build; the signs generalise over frameworks and languages:
 *
 *   - it is HTML and runs scripts (without one, a render would show the same page), and
 *   - its text is little next to them: under FEW_TEXT characters, whatever the reason (an
 *     empty app root, "Loading..." in any language, a `noscript` warning and nothing else), or
 *   - its text is modest (under SOME_TEXT: a server-rendered header and footer around an empty
 *     middle) and the page says it is still loading: `aria-busy="true"`, an empty mount point,
 *     or SHELL_BLOCKS empty placeholders (skeleton, shimmer, spinner or loader blocks, a
 *     progress bar, lists and tables with no rows).
 *
 * Text counts what a fetch would answer: `noscript` content included (forums serve their
 * posts there), so a server-rendered page, with or without hydration data, stays a fetch.
 * Measured on the 1,158 real pages of /work/shared/corpus: see bench/shell-detection.ts.
 */

import { visibleTextLength } from './visible-text.js';

/** Characters of text below which a page with scripts is a shell whatever else it shows. */
export const FEW_TEXT = 250;
/** Characters of text below which a page that says it is loading is a shell. */
export const SOME_TEXT = 1_000;
/** Empty placeholder blocks that make a page with some text a shell. */
export const SHELL_BLOCKS = 3;
/** Only this much of the body is read: a shell's body is small; a big one has text early. */
const SCAN_CHARS = 512 * 1024;

const HTML_TYPE = /^(text\/html|application\/xhtml\+xml)/i;
const BODY_START = /<body\b/i;
const SCRIPT_TAG = /<script\b([^>]*)>/gi;
const TYPE = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
/** Types of scripts the browser runs; anything else (`application/json`, `ld+json`) is data. */
const RUNNABLE_TYPE = /^\s*$|^(?:text\/|application\/)?(?:x-)?(?:java|ecma)script\b|^module$/i;

/** Whether the page has a script the browser runs. */
function runsScript(html: string): boolean {
  SCRIPT_TAG.lastIndex = 0;
  for (let m = SCRIPT_TAG.exec(html); m !== null; m = SCRIPT_TAG.exec(html)) {
    const type = TYPE.exec(m[1] ?? '');
    if (!type || RUNNABLE_TYPE.test(type[1] ?? type[2] ?? type[3] ?? '')) return true;
  }
  return false;
}

const BUSY = /\baria-busy\s*=\s*["']?true\b/i;
const MOUNT_POINT =
  /<(div|main|section)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|svelte|main-app|application)\b[^>]*>\s*<\/\1>|<app-root\b[^>]*>\s*<\/app-root>/i;
/**
 * A block that stands for content to come and holds no text: a placeholder-named element
 * with only empty elements inside, a progress bar, a list or table with no rows.
 */
const PLACEHOLDER =
  /<([a-z][a-z0-9]*)\b[^>]*\b(?:class|id)\s*=\s*["']?[^"'>]*?\b(?:skeleton|shimmer|placeholder|spinner|loader|loading)[^>]*>(?:\s*<[^>]+>)*?\s*<\/\1\s*>|\brole\s*=\s*["']?progressbar\b|<progress\b|<(ul|ol|tbody)\b[^>]*>\s*<\/\2\s*>/gi;

function placeholderBlocks(body: string, atMost: number): number {
  let count = 0;
  PLACEHOLDER.lastIndex = 0;
  while (count < atMost && PLACEHOLDER.exec(body) !== null) count++;
  return count;
}

export function needsJavascript(page: { html: string; contentType?: string | null }): boolean {
  if (page.contentType && !HTML_TYPE.test(page.contentType)) return false;
  const { html } = page;
  if (!runsScript(html)) return false;
  // From the body: a page's head can be megabytes of inline styles.
  const start = html.search(BODY_START);
  const body = html.slice(Math.max(start, 0), Math.max(start, 0) + SCAN_CHARS);
  // Stops counting at SOME_TEXT: most pages have that much text early and end here.
  const text = visibleTextLength(body, SOME_TEXT, { noscript: true });
  if (text >= SOME_TEXT) return false;
  if (text < FEW_TEXT) return true;
  return (
    BUSY.test(body) ||
    MOUNT_POINT.test(body) ||
    placeholderBlocks(body, SHELL_BLOCKS) >= SHELL_BLOCKS
  );
}
