/**
 * Which form field a server error is about, so the text can sit next to that field; and
 * the checks the playground makes before sending. Errors are keyed by scraper parameter
 * (`url`, `window_width`…) plus `output` and `instructions`.
 */
export type FieldErrors = Partial<Record<string, string>>;

/** The scraper parameters that need a browser: choosing one switches render on. */
export const BROWSER_ONLY = [
  'screenshot',
  'screenshot_full_page',
  'block_resources',
  'instructions',
  'window_width',
  'window_height',
  'wait_until',
] as const;

const PATTERNS: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^Invalid value for (\w+)/, (m) => m[1] ?? ''],
  [/^(\w+) requires render=true/, (m) => m[1] ?? ''],
  [/^URL is required!|^URL is not allowed|^Invalid value for url/, () => 'url'],
  [/^Invalid instruction at index|^Instruction \d+ \(/, () => 'instructions'],
  [/^Only one output type/, () => 'output'],
  [/^Proxy unavailable/, () => 'proxy_type'],
];

/** The field an API error text names, or null (then it is shown for the whole form). */
export function fieldOfError(text: string): string | null {
  for (const [pattern, field] of PATTERNS) {
    const m = text.match(pattern);
    if (m) {
      const name = field(m);
      return name === 'screenshot_full_page' || name === 'screenshot' || name === 'markdown'
        ? 'output'
        : name;
    }
  }
  return null;
}

/** What the form can tell before asking the server. */
export function checkUrl(url: string): string | null {
  const t = url.trim();
  if (!t) return 'Enter the page to scrape, e.g. https://example.com/';
  try {
    const u = new URL(t);
    if (u.protocol === 'http:' || u.protocol === 'https:') return null;
  } catch {
    // fall through
  }
  return 'Enter an absolute http:// or https:// URL';
}

/** The errors left once `fields` changed: a fixed field's error goes at once. */
export function withoutFields(errors: FieldErrors, fields: string[]): FieldErrors {
  const next = { ...errors };
  for (const f of fields) {
    delete next[f];
    if (f === 'markdown' || f === 'screenshot' || f === 'screenshot_full_page') delete next.output;
  }
  // Render on fixes every "requires render=true".
  if (fields.includes('render')) for (const f of BROWSER_ONLY) delete next[f];
  if (fields.includes('render')) delete next.output;
  return next;
}
