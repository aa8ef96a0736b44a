/**
 * The request log's HTTP side (GET /api/requests, /api/requests/{id}): its query (each value
 * checked, `Invalid value for <name>: ...` as the scraper's parameters), its JSON and their
 * schemas. The SQL is store/request-log.ts.
 */
import { Type } from '@sinclair/typebox';
import { appError } from '../errors.js';
import { parseIntegerParam } from '../scrape/params/integer.js';
import { invalidValue, repeatedParameter } from '../scrape/params/invalid.js';
import type { RequestLogFilter, RequestRow } from '../store/request-log.js';

export const LOG_LIMIT = { min: 1, max: 200, default: 50 } as const;
const STATUSES = ['success', 'failed', 'pending'] as const;
const SOURCES = ['api', 'workflow', 'firecrawl', 'batch', 'crawl', 'schedule'] as const;
const QUERY_NAMES = new Set([
  'api_key',
  'status',
  'host',
  'workflow_id',
  'source',
  'from',
  'to',
  'q',
  'before',
  'limit',
]);

const text = (description: string) => Type.Optional(Type.String({ description }));

export const RequestLogQuery = Type.Object({
  api_key: text('The account API key (or X-API-Key)'),
  status: text(`One of ${STATUSES.join(', ')}`),
  host: text("The target's host name, exactly"),
  workflow_id: text("A workflow's id"),
  source: text(`One of ${SOURCES.join(', ')}`),
  from: text('Oldest time included (ISO 8601 or epoch milliseconds)'),
  to: text('Time excluded from (ISO 8601 or epoch milliseconds)'),
  q: text('A case-insensitive part of the URL'),
  before: text('Next page: the `next` cursor of the previous page'),
  limit: text(
    `Records per page (${LOG_LIMIT.min}..${LOG_LIMIT.max}, default ${LOG_LIMIT.default})`,
  ),
});

type Json = Record<string, unknown>;

function single(query: Json, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw repeatedParameter(name);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw invalidValue(name, `expected one of ${allowed.join(', ')}`);
}

function time(name: string, value: string): number {
  const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) throw invalidValue(name, 'expected an ISO 8601 time or epoch ms');
  return ms;
}

/** A UUID-shaped cursor; anything else cannot name a record. */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseRequestLogQuery(query: Json): RequestLogFilter {
  for (const name of Object.keys(query)) {
    if (!QUERY_NAMES.has(name)) throw appError('UNKNOWN_PARAMETER', name);
  }
  const limit = single(query, 'limit');
  const filter: RequestLogFilter = {
    limit:
      limit === undefined
        ? LOG_LIMIT.default
        : parseIntegerParam('limit', limit, LOG_LIMIT.min, LOG_LIMIT.max),
  };
  const status = single(query, 'status');
  if (status) filter.status = oneOf('status', status, STATUSES);
  const source = single(query, 'source');
  if (source) filter.source = oneOf('source', source, SOURCES);
  const host = single(query, 'host');
  if (host) filter.host = host.toLowerCase();
  const workflowId = single(query, 'workflow_id');
  if (workflowId) filter.workflowId = workflowId;
  const from = single(query, 'from');
  if (from) filter.from = time('from', from);
  const to = single(query, 'to');
  if (to) filter.to = time('to', to);
  const search = single(query, 'q');
  if (search) filter.search = search.slice(0, 200);
  const before = single(query, 'before');
  if (before) {
    if (!ID.test(before)) throw invalidValue('before', 'expected the id of a request record');
    filter.before = before.toLowerCase();
  }
  return filter;
}

const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const LogRecordSchema = Type.Object(
  {
    id: Type.String(),
    source: Type.String({ description: SOURCES.join(' | ') }),
    workflowId: Nullable(Type.String()),
    url: Type.String(),
    host: Nullable(Type.String()),
    status: Type.String({ description: STATUSES.join(' | ') }),
    statusCode: Type.Union([Type.Integer(), Type.Null()]),
    targetStatus: Type.Union([Type.Integer(), Type.Null()]),
    outputType: Type.String(),
    render: Type.Boolean(),
    proxyType: Type.String(),
    proxyCountry: Nullable(Type.String()),
    creditsSpent: Type.Integer(),
    durationMs: Type.Union([Type.Integer(), Type.Null()]),
    error: Nullable(Type.String()),
    webhook: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
    createdAt: Timestamp,
  },
  { $id: 'RequestLogRecord' },
);

export const LogPageSchema = Type.Object({
  records: Type.Array(LogRecordSchema),
  next: Type.Union([Type.String(), Type.Null()], {
    description: 'The `before` of the next page; null on the last',
  }),
});

export const LogDetailSchema = Type.Object({
  record: LogRecordSchema,
  workflowName: Nullable(Type.String()),
  params: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
  finishedAt: Type.Union([Timestamp, Type.Null()]),
  result: Type.Union([
    Type.Object({ contentType: Type.String(), size: Type.Integer() }),
    Type.Null(),
  ]),
});

const iso = (ms: number) => new Date(ms).toISOString();

export function logRecordJson(row: RequestRow) {
  return {
    id: row.id,
    source: row.source ?? (row.workflow_id ? 'workflow' : 'api'),
    workflowId: row.workflow_id,
    url: row.url,
    host: row.host,
    status: row.status,
    statusCode: row.status_code,
    targetStatus: row.target_status,
    outputType: row.output_type,
    render: Boolean(row.render),
    proxyType: row.proxy_type,
    proxyCountry: row.proxy_country,
    creditsSpent: Number(row.credits),
    durationMs: row.duration_ms,
    error: row.error,
    webhook: row.webhook === null ? null : (JSON.parse(row.webhook) as Json),
    createdAt: iso(Number(row.created_at)),
  };
}

export function finishedAtOf(row: RequestRow): string | null {
  return row.duration_ms === null ? null : iso(Number(row.created_at) + row.duration_ms);
}
