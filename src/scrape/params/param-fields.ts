import { type NativeOptions, type ScrapeOptions, WAIT_UNTIL, type WaitUntil } from '../types.js';
import { formatBlockResources, parseBlockResources } from './block-resources.js';
import { parseBooleanParam } from './boolean.js';
import { formatExtractRules, parseExtractRules } from './extract-rules.js';
import { parseHttpUrlParam } from './http-url.js';
import { parseInstructions } from './instructions.js';
import { parseIntegerParam } from './integer.js';
import { invalidValue } from './invalid.js';
import { parseJsonPrompt, parseJsonSchema } from './model-params.js';
import type { ConfigParamName } from './param-names.js';
import { parseProxyCountry, parseProxyType } from './proxy.js';

/** Contract 2.3 and 2.9. */
export const LIMITS = {
  windowWidth: { min: 320, max: 3840 },
  windowHeight: { min: 240, max: 2160 },
  timeoutMs: { min: 1000, max: 120_000 },
} as const;

/** What a request gets for every parameter nobody set (description's defaults, contract 2.9). */
export const DEFAULT_SCRAPE_OPTIONS: Readonly<Omit<ScrapeOptions, 'url'>> = Object.freeze({
  render: false,
  windowWidth: 1920,
  windowHeight: 1080,
  screenshot: false,
  screenshotFullPage: false,
  markdown: false,
  blockResources: [],
  blockAds: false,
  blockCookieBanners: false,
  blockChatWidgets: false,
  webhookUrl: null,
  proxyType: 'datacenter',
  proxyCountry: null,
  instructions: [],
  timeoutMs: 60_000,
  waitUntil: 'settled',
  extractRules: null,
  structuredData: false,
  jsonSchema: null,
  jsonPrompt: null,
  summary: false,
  changeTracking: false,
  sessionId: null,
  // Other doors' options: the native API never sets them.
  waitForMs: 0,
  mobile: false,
  headers: {},
  languages: [],
  skipTlsVerification: false,
  renderWhenNeeded: false,
  proxyEscalation: false,
  document: null,
});

/** One parameter: how it is written, documented, validated and stored in a workflow config. */
export interface ParamField<K extends keyof NativeOptions> {
  name: ConfigParamName;
  /** For the OpenAPI document. */
  description: string;
  /** The default as a client would write it, for the OpenAPI document. */
  docDefault?: string;
  /** Validates a query string or a JSON value; throws a 400 AppError. */
  parse(value: unknown): NativeOptions[K];
  /** The workflow-config form; undefined means "store nothing". */
  toConfig(value: NativeOptions[K]): unknown;
}

/** Keyed by option so that a new ScrapeOptions field fails to compile until it is listed. */
export type ParamFields = { [K in keyof NativeOptions]: ParamField<K> };

const same = <T>(value: T): T => value;
const flag = (name: ConfigParamName, description: string) => ({
  name,
  description,
  docDefault: 'false',
  parse: (value: unknown) => parseBooleanParam(name, value),
  toConfig: same<boolean>,
});
const range = (name: ConfigParamName, limits: { min: number; max: number }) => (value: unknown) =>
  parseIntegerParam(name, value, limits.min, limits.max);

export const paramFields: ParamFields = {
  url: {
    name: 'url',
    description:
      'Page to scrape: an absolute http or https URL, URL-encoded. Required unless workflow_id is given.',
    parse: (value) => parseHttpUrlParam('url', value),
    toConfig: same,
  },
  render: flag(
    'render',
    'Load the page in a browser with JavaScript; needed for screenshots, block_resources and instructions.',
  ),
  windowWidth: {
    name: 'window_width',
    description: 'Browser window width in pixels, 320..3840 (used only with render=true).',
    docDefault: '1920',
    parse: range('window_width', LIMITS.windowWidth),
    toConfig: same,
  },
  windowHeight: {
    name: 'window_height',
    description: 'Browser window height in pixels, 240..2160 (used only with render=true).',
    docDefault: '1080',
    parse: range('window_height', LIMITS.windowHeight),
    toConfig: same,
  },
  screenshot: flag('screenshot', 'Return a PNG of the visible area (requires render=true).'),
  screenshotFullPage: flag(
    'screenshot_full_page',
    'Return a PNG of the entire page (requires render=true).',
  ),
  markdown: flag(
    'markdown',
    'Return the main content as Markdown, without navigation and similar.',
  ),
  blockResources: {
    name: 'block_resources',
    description:
      'Comma-separated resource types to block (requires render=true): stylesheet, image, media, font, script, texttrack, xhr, fetch, eventsource, manifest, other; or none.',
    docDefault: 'none',
    parse: parseBlockResources,
    toConfig: formatBlockResources,
  },
  blockAds: flag('block_ads', 'Block ads, with or without render.'),
  blockCookieBanners: flag(
    'block_cookie_banners',
    'Block cookie banners, with or without render (rejected or closed, never accepted).',
  ),
  blockChatWidgets: flag('block_chat_widgets', 'Block chat widgets, with or without render.'),
  webhookUrl: {
    name: 'webhook_url',
    description:
      'Deliver the result to this http(s) address instead of returning it; empty means no webhook.',
    parse: (value) => (value === '' ? null : parseHttpUrlParam('webhook_url', value)),
    toConfig: (value) => value ?? undefined,
  },
  proxyType: {
    name: 'proxy_type',
    description: 'Proxy kind: datacenter, residential or mobile.',
    docDefault: 'datacenter',
    parse: parseProxyType,
    toConfig: same,
  },
  proxyCountry: {
    name: 'proxy_country',
    description: 'ISO 3166-1 alpha-2 country of the proxy, case-insensitive; empty means any.',
    parse: parseProxyCountry,
    toConfig: (value) => value ?? undefined,
  },
  instructions: {
    name: 'instructions',
    description:
      'JSON-encoded array of at most 50 steps run in order after the load (requires render=true), each one of {"wait": selector}, {"fill": {"selector", "text", "delay"?}}, {"click": selector}, {"delay": ms}, {"press": key} (e.g. "Enter", "Tab", "Control+A"), {"scroll": "down" | "up"} or {"scroll": {"direction", "selector"?}} (one visible height of the window or of that element), {"evaluate": script} (JavaScript in the page, an expression or a function body; its value is not returned), {"infinite_scroll": {"max_scrolls"?: 1..100, default 10, "delay"?: ms 0..10000 after each scroll, default 500}} or {"infinite_scroll": true} (scrolls to the bottom until the page stops growing). A failing step ends the scrape with 422 naming its index.',
    parse: parseInstructions,
    toConfig: (value) => [...value],
  },
  timeoutMs: {
    name: 'timeout',
    description: 'Budget of the whole scrape in milliseconds, instructions included, 1000..120000.',
    docDefault: '60000',
    parse: range('timeout', LIMITS.timeoutMs),
    toConfig: same,
  },
  waitUntil: {
    name: 'wait_until',
    description:
      "When a render counts as loaded, before the instructions run: settled (the default: after the load event, once the page's own fetch, XHR, script and frame requests have ended, its short timers have run and its DOM has been quiet for 100 ms; requests left open (long polls, streams, polls that repeat) do not hold it, a client-side move (location change, meta refresh) is followed, and it ends at RENDER_SETTLE_MAX_MS, 5 s, after the load event at the latest), load (the load event: every resource), domcontentloaded (the document parsed; images and frames may still be loading) or networkidle (the load event, then no request for 500 ms, waited for up to 10 s: a page that keeps polling is taken as it is then). Used only with render=true.",
    docDefault: 'settled',
    parse: parseWaitUntil,
    toConfig: (value) => (value === DEFAULT_SCRAPE_OPTIONS.waitUntil ? undefined : value),
  },
  extractRules: {
    name: 'extract_rules',
    description:
      'JSON-encoded object of field names to CSS rules (ScrapingBee\'s syntax): answers those fields as JSON (application/json) instead of the page, at the same price. A rule is a selector ("h1": the text of the first match; "a@href": its attribute) or {"selector", "type": "item" (default: first match, or null) | "list" (every match), "output": "text" (default) | "html" | "@<attribute>" | "table_json" | "table_array" | {nested rules, read within each match}, "clean": true (default: whitespace collapsed and trimmed)}. At most 100 fields, 10 levels deep; XPath is not supported. Not with markdown, screenshots or structured_data.',
    parse: parseExtractRules,
    toConfig: formatExtractRules,
  },
  structuredData: flag(
    'structured_data',
    'Answer the page\'s own structured data as JSON (application/json) instead of the page, at the same price: {"jsonLd": [every JSON-LD object; malformed blocks are skipped], "microdata": [items as {type, id?, properties}], "openGraph": {og:, article:, product:... properties}, "twitter": {twitter: properties}}. Not with markdown, screenshots or extract_rules.',
  ),
  jsonSchema: {
    name: 'json_schema',
    description:
      "JSON-encoded JSON schema: the operator's language model reads the page's main-content Markdown and answers JSON matching it (application/json; checked against the schema, one repair), instead of the page. With json_prompt, or alone. Costs PRICE_MODEL_CALL more; 400 when no model is configured. Not with markdown, screenshots, extract_rules, structured_data or summary.",
    parse: parseJsonSchema,
    toConfig: (value) => value ?? undefined,
  },
  jsonPrompt: {
    name: 'json_prompt',
    description:
      "What the operator's language model is to extract from the page's main-content Markdown, answered as JSON (application/json) instead of the page. With json_schema, or alone. Costs PRICE_MODEL_CALL more; 400 when no model is configured.",
    parse: parseJsonPrompt,
    toConfig: (value) => value ?? undefined,
  },
  summary: flag(
    'summary',
    "Answer a summary of the page (text/plain) written by the operator's language model from its main-content Markdown, instead of the page. Costs PRICE_MODEL_CALL more; 400 when no model is configured. Not with markdown, screenshots, extract_rules, structured_data or json_schema/json_prompt.",
  ),
  changeTracking: flag(
    'change_tracking',
    'Answer the page\'s main-content Markdown compared with this account\'s previous change_tracking scrape of the same URL (its kept result), as JSON: {"changeStatus": "new"|"same"|"changed"|"removed", "previousScrapeAt", "visibility", "diff" (a unified diff of the Markdown, null when new), "markdown"}, at the scrape\'s price. With json_schema and/or json_prompt, on a changed page the operator\'s language model answers them over the previous and the current Markdown and "json" holds each field whose answer changed as {"previous", "current"} (2 x PRICE_MODEL_CALL, reserved before the fetch, charged only when asked). Not with markdown, screenshots, extract_rules, structured_data or summary.',
  ),
};

/** Letters, digits and `._-`, 1..100 characters: it names a session, nothing else. */
const SESSION_ID = /^[A-Za-z0-9._-]{1,100}$/;

export function parseSessionId(name: string, value: unknown): string | null {
  if (value === '') return null;
  if (typeof value === 'string' && SESSION_ID.test(value)) return value;
  throw invalidValue(name, 'expected 1 to 100 letters, digits, dots, underscores or hyphens');
}

function parseWaitUntil(value: unknown): WaitUntil {
  if (typeof value === 'string' && (WAIT_UNTIL as readonly string[]).includes(value)) {
    return value as WaitUntil;
  }
  throw invalidValue('wait_until', `expected one of ${WAIT_UNTIL.join(', ')}`);
}

/** Option key of each config parameter name. */
export const optionKeyByName: ReadonlyMap<string, keyof NativeOptions> = new Map(
  (Object.keys(paramFields) as (keyof NativeOptions)[]).map((key) => [paramFields[key].name, key]),
);
