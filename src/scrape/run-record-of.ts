/**
 * The request record of a scrape at each point of its life: refused after validation (a
 * workflow run), pending in the webhook queue, finished. A webhook run's delivery state
 * starts pending; the delivery job moves it on.
 */
import type { AppError } from '../errors.js';
import type { RunRecord } from '../store/run-records.js';
import { outputTypeOf, type PlanRequest } from './plan.js';
import type {
  AskedRequest,
  Outcome,
  RequestSource,
  ScrapeOptions,
  ScrapePlan,
  ScrapeResult,
} from './types.js';

type RunState = Pick<
  RunRecord,
  'status' | 'statusCode' | 'targetStatus' | 'credits' | 'durationMs' | 'error'
>;
type Source = Pick<
  PlanRequest,
  | 'requestId'
  | 'accountId'
  | 'workflowId'
  | 'options'
  | 'createdAt'
  | 'schedule'
  | 'source'
  | 'asked'
>;

/** The log's source of a scrape; plans stored before sources existed came from the scraper. */
export function sourceOf(
  source: Pick<PlanRequest, 'workflowId' | 'source' | 'schedule'>,
): RequestSource {
  return source.source ?? (source.schedule ? 'schedule' : source.workflowId ? 'workflow' : 'api');
}

/**
 * The target's host with its port when not the scheme's default: two services on one
 * address are two targets in the log's filter and the overview's figures.
 */
function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/**
 * The parameters as the request log shows them. Header values may carry the caller's
 * credentials for the target: only their names are kept.
 */
export function paramsText(options: ScrapeOptions): string {
  return JSON.stringify({ ...options, headers: namesOnly(options.headers) });
}

function namesOnly(headers: unknown): Record<string, string> {
  const names = headers && typeof headers === 'object' ? Object.keys(headers) : [];
  return Object.fromEntries(names.map((name) => [name, '(hidden)']));
}

/** A door's request as the log shows it: the body as sent, its header values hidden too. */
function askedText(asked: AskedRequest): string {
  const { body } = asked;
  return JSON.stringify({
    ...asked,
    body: 'headers' in body ? { ...body, headers: namesOnly(body.headers) } : body,
  });
}

function recordOf(source: Source, state: RunState): RunRecord {
  const { options } = source;
  return {
    id: source.requestId,
    accountId: source.accountId,
    workflowId: source.workflowId,
    url: options.url,
    ...state,
    outputType: outputTypeOf(options),
    render: options.render,
    proxyType: options.proxyType,
    proxyCountry: options.proxyCountry,
    webhook: options.webhookUrl
      ? { url: options.webhookUrl, status: 'pending', attempts: 0, lastError: null }
      : null,
    createdAt: source.createdAt,
    schedule: source.schedule ?? null,
    source: sourceOf(source),
    host: hostOf(options.url),
    params: source.asked ? askedText(source.asked) : paramsText(options),
  };
}

/** A workflow run refused after its parameters were valid (proxy, address, credits). */
export function refusedRecord(source: Source, error: AppError): RunRecord {
  return recordOf(source, {
    status: 'failed',
    statusCode: error.status,
    targetStatus: null,
    credits: 0,
    durationMs: Date.now() - source.createdAt,
    error: error.message,
  });
}

/** A webhook scrape waiting in the queue (contract 32). */
export function pendingRecord(plan: ScrapePlan): RunRecord {
  return recordOf(plan, {
    status: 'pending',
    statusCode: null,
    targetStatus: null,
    credits: 0,
    durationMs: null,
    error: null,
  });
}

export function finishedRecord(plan: ScrapePlan, outcome: Outcome, charged: number): RunRecord {
  const record = recordOf(plan, {
    status: outcome.ok ? 'success' : 'failed',
    statusCode: outcome.ok ? 200 : outcome.error.status,
    targetStatus: outcome.ok ? outcome.result.targetStatus : null,
    credits: charged,
    durationMs: Date.now() - plan.createdAt,
    error: outcome.ok ? null : outcome.error.message,
  });
  // A json or summary output: the model and its token counts beside the parameters.
  const usage = outcome.ok ? outcome.result.model : undefined;
  if (!usage) return record;
  return { ...record, params: JSON.stringify({ ...JSON.parse(record.params), model: usage }) };
}

/** A request answered without a scrape (a page from the Firecrawl door's cache). */
export function servedRecord(
  source: Source,
  result: Pick<ScrapeResult, 'targetStatus'>,
  charged: number,
): RunRecord {
  return recordOf(source, {
    status: 'success',
    statusCode: 200,
    targetStatus: result.targetStatus,
    credits: charged,
    durationMs: Date.now() - source.createdAt,
    error: null,
  });
}
