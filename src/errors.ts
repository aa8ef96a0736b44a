/**
 * The one catalog of the service's failures: code, HTTP status and exact text. Texts are
 * part of the API: clients match on them, so docs/errors.md publishes each (a new entry is a
 * new row there) and test/errors.test.ts keeps this table and that reference in step. Any
 * layer throws `appError(code, ...)`; the HTTP layer turns it into `{"error": "..."}`. Failures only HTTP itself can have (unknown routes, bodies, API keys)
 * are the API's own, in api/http-errors.ts. Imports nothing, so every layer may import it.
 */
const catalog = {
  WORKFLOW_NOT_FOUND: [404, () => 'Workflow not found!'],
  WORKFLOW_ARCHIVED: [400, () => 'Workflow is archived!'],
  BAD_REQUEST: [400, (reason: string) => reason],
  URL_REQUIRED: [400, () => 'URL is required!'],
  JSON_TOO_DEEP: [400, (max: number) => `JSON is nested more than ${max} levels deep`],
  INVALID_PARAMETER: [400, (reason: string) => reason],
  UNKNOWN_PARAMETER: [400, (name: string) => `Unknown parameter: ${name}`],
  ONE_OUTPUT_TYPE: [400, () => 'Only one output type can be requested per request.'],
  REQUIRES_RENDER: [400, (name: string) => `${name} requires render=true`],
  INVALID_INSTRUCTION: [
    400,
    (index: number, reason: string) => `Invalid instruction at index ${index}: ${reason}`,
  ],
  URL_NOT_ALLOWED: [
    400,
    (host: string) => `URL is not allowed: ${host} resolves to a non-public address`,
  ],
  PROXY_UNAVAILABLE: [
    400,
    (type: string, country?: string) =>
      country
        ? `Proxy unavailable: no ${type} proxy for country ${country.toUpperCase()}`
        : `Proxy unavailable: no ${type} proxy`,
  ],
  NAME_REQUIRED: [400, () => 'Name is required!'],
  INVALID_NAME: [400, () => 'Name must be a string of 1 to 100 characters'],
  CONFIG_REQUIRED: [400, () => 'Config is required!'],
  UNKNOWN_CONFIG_FIELD: [400, (name: string) => `Unknown config field: ${name}`],
  ONLY_NAME_AND_CONFIG: [400, () => 'Only name and config can be edited'],
  NOTHING_TO_EDIT: [400, () => 'Name or config is required!'],
  ONLY_NAME_RENAME: [400, () => 'Only name can be changed here; use /api/workflow/edit/{id}'],
  SCHEDULE_NOT_FOUND: [404, () => 'Schedule not found!'],
  CRON_REQUIRED: [400, () => 'Cron is required!'],
  INVALID_CRON: [400, (reason: string) => `Invalid cron expression: ${reason}`],
  INVALID_TIMEZONE: [400, (zone: string) => `Unknown time zone: ${zone}`],
  SCHEDULE_TOO_FREQUENT: [
    400,
    (seconds: number) => `Schedule runs too often: at most once every ${seconds} seconds`,
  ],
  INVALID_ENABLED: [400, () => 'enabled must be true or false'],
  ONLY_SCHEDULE_FIELDS: [400, () => 'Only cron, timezone and enabled can be set'],
  /** The request log (GET /api/requests/{id}): unknown here as across accounts. */
  REQUEST_NOT_FOUND: [404, () => 'Request not found!'],
  RESULT_NOT_KEPT: [404, () => 'No result is kept for this request'],
  /** The account's keys (/api/keys). */
  KEY_NOT_FOUND: [404, () => 'API key not found!'],
  LAST_KEY: [400, () => "The account's last active key cannot be revoked; rotate it instead"],
  TOO_MANY_KEYS: [400, (max: number) => `An account holds at most ${max} active keys`],
  ONLY_KEY_NAME: [400, () => 'Only name can be set on a key'],
  /**
   * The contract's text on the native door; the Firecrawl door's, in Firecrawl's words, says
   * what the request needed (an escalated engine's price) and what the account has.
   */
  INSUFFICIENT_CREDITS: [
    402,
    (needed?: number, balance?: number) =>
      needed === undefined
        ? 'Insufficient credits to make the request.'
        : `Insufficient credits to perform this request: it needs ${needed} ${needed === 1 ? 'credit' : 'credits'} and the account has ${balance ?? 0}.`,
  ],
  INSTRUCTION_FAILED: [
    422,
    (index: number, kind: string, reason: string) =>
      `Instruction ${index} (${kind}) failed: ${reason}`,
  ],
  /** A page whose type has no Markdown (an image, an archive, audio, video). */
  UNSUPPORTED_CONTENT: [422, (contentType: string) => `Cannot convert ${contentType} to Markdown`],
  DOCUMENT_UNREADABLE: [
    422,
    (kind: string, reason: string) => `The ${kind} cannot be read: ${reason}`,
  ],
  /** extract_rules whose answer outgrows its bound (nested html or text of every element). */
  EXTRACT_TOO_LARGE: [
    422,
    (max: number) => `The extracted fields exceed ${max} characters: narrow the extract_rules`,
  ],
  TOO_MANY_CONCURRENT: [429, () => 'Too many concurrent requests'],
  /** The door's json, summary and extract need the operator's model (config.ts ModelSettings). */
  MODEL_NOT_CONFIGURED: [
    400,
    (feature: string) =>
      `${feature} needs a language model and none is configured: set OPENAI_BASE_URL and MODEL_NAME (or OLLAMA_BASE_URL and MODEL_NAME, or OPENAI_API_KEY for OpenAI's API)`,
  ],
  MODEL_FAILED: [502, (reason: string) => `The language model failed: ${reason}`],
  /** Firecrawl's text for an extract job it does not know (or another team's). */
  EXTRACT_NOT_FOUND: [404, () => 'Extract job not found'],
  MODEL_TIMED_OUT: [504, (ms: number) => `The language model did not answer within ${ms} ms`],
  /** Never sent (nobody is listening): what a run record says when its caller hung up. */
  CLIENT_CLOSED: [499, () => 'Client closed the connection'],
  FETCH_FAILED: [502, (reason: string) => `Failed to fetch the page: ${reason}`],
  BROWSER_FAILED: [502, (reason: string) => `Browser failed: ${reason}`],
  /** Every attempt (proxies of the pool, escalation) got a block page: never answered as a 200. */
  TARGET_BLOCKED: [
    502,
    (attempts: number, signature: string) =>
      `The target blocked the request: ${signature} (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'})`,
  ],
  NODE_SATURATED: [503, () => 'Service is at capacity, retry later'],
  NOT_READY: [503, (reason: string) => `Service is not ready: ${reason}`],
  TIMED_OUT: [504, (ms: number) => `Timed out after ${ms} ms`],
  INTERNAL: [500, () => 'Internal server error'],
} as const satisfies Record<string, readonly [number, (...args: never[]) => string]>;

export type ErrorCode = keyof typeof catalog;

/** The longest argument a text repeats: our own reasons are shorter, a caller's value is cut. */
export const MAX_ECHOED_CHARS = 200;
/** Secrets of this service's shapes (accounts/api-key.ts): API keys and webhook secrets. */
const SECRET = /(pgk|whsec)_[A-Za-z0-9_-]+/g;

/**
 * An argument as a text may show it: error texts repeat what the caller sent (a parameter's
 * name, a time zone, a host), and they reach logs, dashboards and webhook receivers; a key
 * pasted in the wrong place must not travel on with them, nor a megabyte of name.
 * Every text of both catalogs renders its arguments through this.
 */
export function echoed<T>(value: T): T | string {
  if (typeof value !== 'string') return value;
  const shown = value.replace(SECRET, '$1_[REDACTED]');
  return shown.length > MAX_ECHOED_CHARS ? `${shown.slice(0, MAX_ECHOED_CHARS)}…` : shown;
}
type ArgsOf<C extends ErrorCode> = Parameters<(typeof catalog)[C][1]>;

/** An error that knows its answer. Anything else reaching the handler is a 500. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. Retry-After on 503. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, status: number, message: string, headers: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.headers = headers;
  }
}

export function appError<C extends ErrorCode>(code: C, ...args: ArgsOf<C>): AppError {
  const [status, render] = catalog[code];
  const message = (render as (...a: unknown[]) => string)(...args.map(echoed));
  return new AppError(code, status, message, {});
}

export function appErrorWithHeaders<C extends ErrorCode>(
  code: C,
  headers: Record<string, string>,
  ...args: ArgsOf<C>
): AppError {
  const error = appError(code, ...args);
  return new AppError(error.code, error.status, error.message, headers);
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** The status of each code, for the OpenAPI document and the catalog test. */
export function statusOf(code: ErrorCode): number {
  return catalog[code][0];
}

export const errorCodes = Object.keys(catalog) as ErrorCode[];
