import type {
  Account,
  ApiKeyInfo,
  LogDetail,
  LogFilter,
  LogPage,
  NewApiKey,
  RequestRecord,
  ScrapeMeta,
  ScrapeOutcome,
  Usage,
  Workflow,
  WorkflowConfig,
} from './types.js';

/** An answer of the API that was not 2xx, carrying the server's own error text. */
export class ApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

type Json = Record<string, unknown>;

/**
 * A thin client of the public JSON API. The key travels in the `X-API-Key` header so it
 * stays out of URLs, history and server logs.
 */
export class ApiClient {
  readonly apiKey: string;
  readonly baseUrl: string;

  /** @param baseUrl default: the page's own origin (the service serves the dashboard). */
  constructor(apiKey: string, baseUrl = '') {
    this.apiKey = apiKey;
    this.baseUrl = baseUrl;
  }

  account(): Promise<Account> {
    return this.json<Account>('GET', '/api/account');
  }

  /** Newest first; without `archived`, both active and archived workflows. */
  listWorkflows(archived?: boolean): Promise<Workflow[]> {
    const query = archived === undefined ? '' : `?archived=${archived}`;
    return this.json<Workflow[]>('GET', `/api/workflow${query}`);
  }

  createWorkflow(name: string, config: WorkflowConfig): Promise<Workflow> {
    return this.json<Workflow>('POST', '/api/workflow/create', { name, config });
  }

  /** `config` is a JSON merge patch: a field set to null is removed. */
  editWorkflow(id: string, patch: { name?: string; config?: Json }): Promise<Workflow> {
    return this.json<Workflow>('PATCH', `/api/workflow/edit/${enc(id)}`, patch);
  }

  renameWorkflow(id: string, name: string): Promise<Workflow> {
    return this.json<Workflow>('PATCH', `/api/workflow/${enc(id)}`, { name });
  }

  archiveWorkflow(id: string): Promise<Workflow> {
    return this.json<Workflow>('DELETE', `/api/workflow/archive/${enc(id)}`);
  }

  unarchiveWorkflow(id: string): Promise<Workflow> {
    return this.json<Workflow>('POST', `/api/workflow/unarchive/${enc(id)}`);
  }

  requests(id: string, limit = 50): Promise<RequestRecord[]> {
    return this.json<RequestRecord[]>('GET', `/api/workflow/requests/${enc(id)}/?limit=${limit}`);
  }

  usage(): Promise<Usage> {
    return this.json<Usage>('GET', '/api/account/usage');
  }

  /** A page of the request log, newest first; `before`: the previous page's `next`. */
  requestLog(filter: LogFilter, before?: string | null, limit = 50): Promise<LogPage> {
    const q = new URLSearchParams({ limit: String(limit) });
    for (const [k, v] of Object.entries(filter)) if (v) q.set(k, v);
    if (before) q.set('before', before);
    return this.json<LogPage>('GET', `/api/requests?${q}`);
  }

  requestDetail(id: string): Promise<LogDetail> {
    return this.json<LogDetail>('GET', `/api/requests/${enc(id)}`);
  }

  /** The kept result of a request, as the preview shows it. */
  async requestResult(id: string): Promise<ScrapeOutcome> {
    const res = await fetch(`${this.baseUrl}/api/requests/${enc(id)}/result`, {
      headers: { 'X-API-Key': this.apiKey },
    });
    if (!res.ok) throw await toApiError(res);
    return toOutcome(res, {
      creditsUsed: null,
      creditsRemaining: null,
      targetStatus: null,
      targetUrl: null,
      durationMs: 0,
    });
  }

  keys(): Promise<ApiKeyInfo[]> {
    return this.json<ApiKeyInfo[]>('GET', '/api/keys');
  }

  createKey(name?: string): Promise<NewApiKey> {
    return this.json<NewApiKey>('POST', '/api/keys', name ? { name } : undefined);
  }

  renameKey(id: string, name: string | null): Promise<ApiKeyInfo> {
    return this.json<ApiKeyInfo>('PATCH', `/api/keys/${enc(id)}`, { name });
  }

  revokeKey(id: string): Promise<unknown> {
    return this.json('DELETE', `/api/keys/${enc(id)}`);
  }

  rotateKey(id: string): Promise<NewApiKey> {
    return this.json<NewApiKey>('POST', `/api/keys/${enc(id)}/rotate`);
  }

  webhookSecret(): Promise<{ webhookSecret: string }> {
    return this.json('GET', '/api/account/webhook-secret');
  }

  rotateWebhookSecret(): Promise<{ webhookSecret: string }> {
    return this.json('POST', '/api/account/webhook-secret/rotate');
  }

  /** GET /api/scraper with the given query; the answer is turned into a previewable outcome. */
  async scrape(params: URLSearchParams, signal?: AbortSignal): Promise<ScrapeOutcome> {
    const started = performance.now();
    const res = await fetch(`${this.baseUrl}/api/scraper?${params}`, {
      headers: { 'X-API-Key': this.apiKey },
      signal,
    });
    if (!res.ok) throw await toApiError(res);
    const meta: ScrapeMeta = {
      creditsUsed: intHeader(res, 'x-credits-used'),
      creditsRemaining: intHeader(res, 'x-credits-remaining'),
      targetStatus: intHeader(res, 'x-target-status'),
      targetUrl: res.headers.get('x-target-url'),
      durationMs: Math.round(performance.now() - started),
      requestId: res.headers.get('x-request-id'),
    };
    return toOutcome(res, meta);
  }

  /** A kept result that is JSON (a Firecrawl Document), parsed. */
  async requestDocument(id: string): Promise<unknown> {
    return this.json<unknown>('GET', `/api/requests/${enc(id)}/result`);
  }

  /** A call to the Firecrawl door (/v1, /v2); its errors carry the door's own text. */
  firecrawl<T>(method: string, path: string, body?: unknown): Promise<T> {
    return this.json<T>(method, path, body);
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { 'X-API-Key': this.apiKey };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    if (!res.ok) throw await toApiError(res);
    return (await res.json()) as T;
  }
}

const enc = encodeURIComponent;

/** A scraper answer (or a kept result) as the preview shows it, by its content type. */
async function toOutcome(res: Response, meta: ScrapeMeta): Promise<ScrapeOutcome> {
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('image/')) return { kind: 'screenshot', blob: await res.blob(), meta };
  if (type.startsWith('text/markdown')) return { kind: 'markdown', text: await res.text(), meta };
  if (type.startsWith('application/json')) {
    const text = await res.text();
    const body = JSON.parse(text) as Json;
    if (body.status === 'ok' && typeof body.requestId === 'string') {
      return {
        kind: 'webhook',
        message: String(body.message ?? body.status ?? ''),
        requestId: body.requestId,
        meta,
      };
    }
    // A Firecrawl document kept in the log: its JSON as text.
    return { kind: 'html', text: JSON.stringify(body, null, 2), meta };
  }
  return { kind: 'html', text: await res.text(), meta };
}

function intHeader(res: Response, name: string): number | null {
  const v = res.headers.get(name);
  if (v === null || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/** Every API error is `{"error": "..."}`; anything else (a proxy's HTML page) gets a generic text. */
async function toApiError(res: Response): Promise<ApiError> {
  let text = `${res.status} ${res.statusText}`.trim();
  try {
    const body = (await res.json()) as Json;
    if (typeof body.error === 'string') text = body.error;
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(res.status, text);
}

/** The message to show for anything a call threw. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return `Network error: ${err.message}`;
  return String(err);
}
