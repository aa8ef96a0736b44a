/**
 * How much text a reader would see on a page, read from its HTML without parsing it: what
 * decides that a fetched page needs JavaScript (needs-javascript.ts) and that an answer is
 * a short block page or an empty one (block-signatures.ts).
 */

/** What is not visible text: hidden blocks, comments, tags, entities, runs of white space. */
const NOT_TEXT =
  /<(script|style|template|noscript|svg)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->|<[^>]+>|&[a-z#0-9]+;|\s+/gi;
/** The same, with what `noscript` holds counted as text: what a fetched page's answer shows. */
const NOT_FETCHED_TEXT =
  /<(script|style|template|svg)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->|<[^>]+>|&[a-z#0-9]+;|\s+/gi;
const BODY_START = /<body\b[^>]*>/i;

/**
 * Characters of the page's visible text (white space collapsed, entities counted as a space),
 * counted up to `atMost`: callers that only compare with a bound stop reading there. One
 * pass from the body's start tag (the whole page without one) to the end, on the event loop for every fetched page (block detection runs on
 * each), where rewriting the page five times took about a millisecond.
 */
export function visibleTextLength(
  html: string,
  atMost = Number.POSITIVE_INFINITY,
  /** `noscript: true`: count what `noscript` holds (a fetch's answer keeps it). */
  options: { noscript?: boolean } = {},
): number {
  return readVisibleText(html, atMost, options, null);
}

/**
 * The page's visible text itself, up to about `atMost` characters: for words a reader must
 * see (a captcha's request to prove one is human), not words in attributes or scripts.
 */
export function visibleText(html: string, atMost = Number.POSITIVE_INFINITY): string {
  const parts: string[] = [];
  readVisibleText(html, atMost, {}, parts);
  return parts.join(' ');
}

function readVisibleText(
  html: string,
  atMost: number,
  options: { noscript?: boolean },
  parts: string[] | null,
): number {
  const skip = options.noscript ? NOT_FETCHED_TEXT : NOT_TEXT;
  const start = BODY_START.exec(html);
  const body = start ? html.slice(start.index + start[0].length) : html;
  let length = 0;
  let gap = false;
  let last = 0;
  const text = (end: number) => {
    if (end <= last) return;
    if (gap && length > 0) length++;
    length += end - last;
    parts?.push(body.slice(last, end));
  };
  skip.lastIndex = 0;
  for (let m = skip.exec(body); m !== null; m = skip.exec(body)) {
    text(m.index);
    if (length >= atMost) return atMost;
    gap = true;
    last = skip.lastIndex;
  }
  text(body.length);
  return Math.min(length, atMost);
}
