/**
 * When an answer is a block page rather than the page: the table of signatures below, the
 * one place this is decided (the pipeline retries a blocked answer on the next proxy, the
 * Firecrawl door's `proxy: auto` escalates to a residential one, and a scrape whose every
 * attempt was blocked fails with `TARGET_BLOCKED` instead of answering the block page).
 *
 * | signature              | status          | what the page holds                                   |
 * |------------------------|-----------------|-------------------------------------------------------|
 * | cloudflare-challenge   | 403, 429, 503   | `cf-chl-`, `__cf_chl_`, `challenge-platform`, `cf_chl_opt`, "Just a moment...", "Attention Required! \| Cloudflare" |
 * | akamai                 | 403             | "Access Denied" with "Reference #", `errors.edgesuite.net` |
 * | datadome               | 403, 429        | `captcha-delivery.com`, `datadome`                    |
 * | perimeterx             | 403, 429        | `px-captcha`, `_pxAppId`, `perimeterx`, "Press & Hold" |
 * | imperva                | any (a short page) | `_Incapsula_Resource`, "Incapsula incident ID"     |
 * | aws-waf                | 403, 405, 429   | `aws-waf-token`, `AwsWafIntegration`, `awswaf`        |
 * | kasada                 | 429             | `KPSDK`, `/ips.js`                                    |
 * | sucuri                 | 403             | "Sucuri WebSite Firewall", `sucuri.net`               |
 * | f5-rejected            | any (a short page) | "The requested URL was rejected" with "support ID" |
 * | unusual-traffic        | any (a short page) | "unusual traffic from your computer network"       |
 * | captcha                | any             | a short page (under 1500 characters of text) with a captcha widget (reCAPTCHA, hCaptcha, Turnstile, `captcha`) whose visible text asks to prove one is human |
 * | empty                  | 2xx             | no text at all where the same URL answered with text before (in this process) |
 *
 * "A short page": under 1500 characters of visible text in the whole page.
 * A 403, 429 or 503 without a signature is the target's own answer (contract 2.14): a 200
 * with `X-Target-Status`, as before.
 */
import { visibleText, visibleTextLength } from './visible-text.js';

export type BlockSignature =
  | 'cloudflare-challenge'
  | 'akamai'
  | 'datadome'
  | 'perimeterx'
  | 'imperva'
  | 'aws-waf'
  | 'kasada'
  | 'sucuri'
  | 'f5-rejected'
  | 'unusual-traffic'
  | 'captcha'
  | 'empty';

interface VendorRule {
  signature: BlockSignature;
  /** Statuses the rule applies to; null: any. */
  statuses: readonly number[] | null;
  pattern: RegExp;
}

const VENDOR_RULES: readonly VendorRule[] = [
  {
    signature: 'cloudflare-challenge',
    statuses: [403, 429, 503],
    pattern:
      /cf-chl-|__cf_chl_|challenge-platform|cf_chl_opt|<title>\s*Just a moment\.\.\.|Attention Required! \| Cloudflare/i,
  },
  {
    signature: 'akamai',
    statuses: [403],
    pattern: /Access Denied[\s\S]{0,2000}Reference #\d|errors\.edgesuite\.net/i,
  },
  { signature: 'datadome', statuses: [403, 429], pattern: /captcha-delivery\.com|datadome/i },
  {
    signature: 'perimeterx',
    statuses: [403, 429],
    pattern: /px-captcha|_pxAppId|perimeterx|Press &(amp;)? Hold/i,
  },
  { signature: 'imperva', statuses: null, pattern: /_Incapsula_Resource|Incapsula incident ID/i },
  {
    signature: 'aws-waf',
    statuses: [403, 405, 429],
    pattern: /aws-waf-token|AwsWafIntegration|awswaf/i,
  },
  { signature: 'kasada', statuses: [429], pattern: /KPSDK|\/ips\.js/ },
  { signature: 'sucuri', statuses: [403], pattern: /Sucuri WebSite Firewall|sucuri\.net/i },
  {
    signature: 'f5-rejected',
    statuses: null,
    pattern: /The requested URL was rejected[\s\S]{0,500}support ID/i,
  },
  {
    signature: 'unusual-traffic',
    statuses: null,
    pattern: /unusual traffic from your computer network/i,
  },
];

const CAPTCHA_WIDGET =
  /g-recaptcha|recaptcha\/api|hcaptcha\.com|h-captcha|cf-turnstile|challenges\.cloudflare\.com|captcha/i;
const PROVE_HUMAN = /robot|human|verify|verification|automated|security check|solve/i;
/** Text below which a page with a captcha widget is the captcha, not a page using one. */
const CAPTCHA_PAGE_TEXT = 1500;
/** Only the start of a page is read: block pages are small. */
const SCAN_CHARS = 64 * 1024;
/** A URL "had content" when an earlier answer had at least this much text. */
const HAD_CONTENT_TEXT = 200;

/**
 * URLs that answered with text, so that an empty answer of the same URL can be told from a
 * page that is empty anyway. Bounded (oldest forgotten first); per process.
 */
export class ContentMemory {
  readonly #seen = new Map<string, true>();
  constructor(private readonly limit = 10_000) {}

  remember(url: string): void {
    this.#seen.delete(url);
    this.#seen.set(url, true);
    if (this.#seen.size > this.limit) {
      const oldest = this.#seen.keys().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
  }

  hadContent(url: string): boolean {
    return this.#seen.has(url);
  }
}

export interface ClassifiedPage {
  status: number;
  html: string;
  contentType?: string | null | undefined;
}

const HTML_TYPE = /^(text\/html|application\/xhtml\+xml)/i;

/** Statuses some vendor rule names; on any other only a small page can be a block page. */
const VENDOR_STATUSES: ReadonlySet<number> = new Set(
  VENDOR_RULES.flatMap((rule) => rule.statuses ?? []),
);

/** Whether a page has under 1500 characters of visible text, counted once and only as needed. */
class SmallPage {
  #small: boolean | null = null;
  constructor(private readonly html: string) {}

  is(): boolean {
    this.#small ??= visibleTextLength(this.html, CAPTCHA_PAGE_TEXT) < CAPTCHA_PAGE_TEXT;
    return this.#small;
  }
}

function vendorSignature(status: number, head: string, small: SmallPage): BlockSignature | null {
  for (const rule of VENDOR_RULES) {
    if (rule.statuses !== null && !rule.statuses.includes(status)) continue;
    if (!rule.pattern.test(head)) continue;
    // A rule for any status also meets ordinary pages: Imperva's resource script is served
    // on every page it protects, and an article may quote a block page's words. Such a
    // match on a page of content (1500 characters of text or more) is the page.
    if (rule.statuses === null && !small.is()) continue;
    return rule.signature;
  }
  return null;
}

/**
 * The signature of a block page, or null for the page itself. With `memory` and the
 * requested `url`, an empty answer where the URL had content counts as blocked, and an
 * answer with content is remembered.
 */
export function blockSignature(
  page: ClassifiedPage,
  memory?: { memory: ContentMemory; url: string },
): BlockSignature | null {
  if (page.contentType && !HTML_TYPE.test(page.contentType)) return null;
  const head = page.html.slice(0, SCAN_CHARS);
  const small = new SmallPage(page.html);
  // On a status no vendor rule names (a 200), every signature but `empty` needs a small page:
  // a page of content costs one bounded count instead of every pattern over its first 64 KB
  // (~0.3 ms of a plain scrape's CPU, issue 26).
  if (VENDOR_STATUSES.has(page.status) || small.is()) {
    const vendor = vendorSignature(page.status, head, small);
    if (vendor) return vendor;
    // A captcha page is small as a whole: its text is counted over the whole page, as a
    // page whose first 64 KB are head (inline scripts and styles) and whose comment form
    // names a captcha is an article. The request to prove one is human is read in the
    // visible text only: a shop's settings (`captchaSettings`), a `robots` meta tag or the
    // Roboto font are in every page's head.
    if (
      CAPTCHA_WIDGET.test(head) &&
      small.is() &&
      PROVE_HUMAN.test(visibleText(page.html, CAPTCHA_PAGE_TEXT))
    ) {
      return 'captcha';
    }
  }
  if (!memory) return null;
  const ok = page.status >= 200 && page.status < 300;
  if (!ok) return null;
  const text = visibleTextLength(head, HAD_CONTENT_TEXT);
  if (text === 0 && memory.memory.hadContent(memory.url)) return 'empty';
  if (text >= HAD_CONTENT_TEXT) memory.memory.remember(memory.url);
  return null;
}
