/** A tiny JSON client for the workflow endpoints of a test service (loopback only). */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  /** Key sent as `api_key`; null sends none. Default: the client's key. */
  key?: string | null;
  /** A JSON value to send, or a raw string (sent as is, with a JSON content type). */
  body?: unknown;
  raw?: string;
  contentType?: string;
}

export function workflowClient(baseUrl: string, apiKey: string) {
  return async function call<T = unknown>(
    method: string,
    path: string,
    options: CallOptions = {},
  ): Promise<Answer<T>> {
    const url = new URL(path, baseUrl);
    const key = options.key === undefined ? apiKey : options.key;
    if (key !== null) url.searchParams.set('api_key', key);
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      body: (type.includes('json') ? JSON.parse(text) : text) as T,
      headers: response.headers,
    };
  };
}

export type Call = ReturnType<typeof workflowClient>;

export interface WorkflowBody {
  id: string;
  userId: string;
  config: Record<string, unknown>;
  name: string;
  lastRun: string | null;
  creditsSpent: number;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
}

export const WORKFLOW_FIELDS = [
  'archived',
  'config',
  'createdAt',
  'creditsSpent',
  'id',
  'lastRun',
  'name',
  'updatedAt',
  'userId',
];

export const RECORD_FIELDS = [
  'createdAt',
  'creditsSpent',
  'durationMs',
  'error',
  'id',
  'outputType',
  'proxyCountry',
  'proxyType',
  'render',
  'status',
  'statusCode',
  'targetStatus',
  'url',
  'webhook',
  'workflowId',
];

/** ISO 8601 UTC with milliseconds, as contract 24 fixes it. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
