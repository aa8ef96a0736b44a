/**
 * Firecrawl's `changeTracking` format: the page's Markdown against the same account's
 * previous scrape of the same URL (its kept result, RESULT_RETENTION_DAYS), as
 * `changeStatus` new / same / changed / removed (the page now answers 404 or 410) and, in
 * `git-diff` mode, a unified diff of the Markdown (the `diff` package). In `json` mode, on a
 * changed page, the operator's model reads the previous and the current Markdown with the
 * caller's schema and/or prompt (two paid model calls, as Firecrawl makes them) and
 * `json` holds each top-level field whose answer differs as `{previous, current}`; a new,
 * same or removed page asks the model nothing.
 */
import { createTwoFilesPatch } from 'diff';
import type { Kysely } from 'kysely';
import { appError } from '../errors.js';
import type { ModelCalls } from '../models/model-calls.js';
import { extractJson, schemaValidator } from '../models/structured-answer.js';
import type { PageDocument } from '../scrape/types.js';
import type { KeptResults } from '../store/kept-results.js';
import { previousScrapeOf } from '../store/previous-scrape.js';
import type { Database } from '../store/schema.js';

export type ChangeStatus = 'new' | 'same' | 'changed' | 'removed';

export interface ChangeTrackingRequest {
  modes: ('git-diff' | 'json')[];
  tag: string | null;
  /** The json mode's questions to the model: a schema, a prompt or both. */
  schema?: Record<string, unknown>;
  prompt?: string;
}

export interface PreviousScrape {
  markdown: string;
  createdAt: number;
}

export interface ChangeTracking {
  previousScrapeAt: string | null;
  changeStatus: ChangeStatus;
  visibility: 'visible' | 'hidden';
  tag: string | null;
  diff?: { text: string };
  /** json mode, on a changed page: each field whose answer changed. */
  json?: Record<string, { previous: unknown; current: unknown }>;
}

export function changeTrackingOf(
  request: ChangeTrackingRequest,
  current: { markdown: string; statusCode: number },
  previous: PreviousScrape | null,
): ChangeTracking {
  const gone = current.statusCode === 404 || current.statusCode === 410;
  const changeStatus: ChangeStatus =
    previous === null
      ? 'new'
      : gone
        ? 'removed'
        : previous.markdown === current.markdown
          ? 'same'
          : 'changed';
  const tracking: ChangeTracking = {
    previousScrapeAt: previous ? new Date(previous.createdAt).toISOString() : null,
    changeStatus,
    visibility: gone ? 'hidden' : 'visible',
    tag: request.tag,
  };
  if (previous && request.modes.includes('git-diff')) {
    tracking.diff = {
      text: createTwoFilesPatch('previous', 'current', previous.markdown, current.markdown),
    };
  }
  return tracking;
}

/** A kept result's Markdown, or null when it has none (another format was asked then). */
export function markdownOfKept(body: Buffer): string | null {
  try {
    const page = JSON.parse(body.toString('utf8')) as PageDocument;
    return typeof page.markdown === 'string' ? page.markdown : null;
  } catch {
    return null;
  }
}

/** The account's previous scrape of `url` with its Markdown kept; null: none (or not kept). */
export async function previousScrape(
  deps: { db: Kysely<Database>; keptResults: Pick<KeptResults, 'read'> },
  accountId: string,
  url: string,
  beforeId: string,
): Promise<PreviousScrape | null> {
  const previous = await previousScrapeOf(deps.db, accountId, url, beforeId);
  if (!previous) return null;
  const kept = await deps.keptResults.read(accountId, previous.id);
  const markdown = kept ? markdownOfKept(kept.body) : null;
  return markdown === null ? null : { markdown, createdAt: previous.createdAt };
}

/**
 * Before the scrape: the json mode without a model is a 400 naming the settings, and a
 * schema that is no JSON schema a 400, not a failed model call.
 */
export function checkChangeTracking(
  request: ChangeTrackingRequest,
  models: ModelCalls | null,
): void {
  if (!request.modes.includes('json')) return;
  if (!models) throw appError('MODEL_NOT_CONFIGURED', 'The changeTracking json mode');
  if (request.schema) schemaValidator(request.schema);
}

/**
 * The fields of two answers that differ (JSON equality), each as `{previous, current}`. An
 * answer that is not an object is one field, `value`.
 */
export function changedFields(
  previous: unknown,
  current: unknown,
): Record<string, { previous: unknown; current: unknown }> {
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const before = isRecord(previous) ? previous : { value: previous };
  const after = isRecord(current) ? current : { value: current };
  const changed: Record<string, { previous: unknown; current: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = Object.hasOwn(before, key) ? before[key] : null;
    const now = Object.hasOwn(after, key) ? after[key] : null;
    if (JSON.stringify(was) !== JSON.stringify(now)) {
      Object.defineProperty(changed, key, {
        value: { previous: was, current: now },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return changed;
}

export interface TrackingDeps {
  db: Kysely<Database>;
  keptResults: Pick<KeptResults, 'read'>;
  /** null: no model (the json mode was refused before the scrape). */
  models: ModelCalls | null;
}

/**
 * The Document's `changeTracking`, against the account's previous scrape of `url` (before
 * `requestId`); the credits its model calls cost (json mode on a changed page).
 */
export async function trackChanges(
  deps: TrackingDeps,
  request: ChangeTrackingRequest,
  current: { markdown: string; statusCode: number },
  scrape: { accountId: string; url: string; requestId: string; signal?: AbortSignal },
): Promise<{ tracking: ChangeTracking; charged: number }> {
  const previous = await previousScrape(deps, scrape.accountId, scrape.url, scrape.requestId);
  const tracking = changeTrackingOf(request, current, previous);
  if (!previous || tracking.changeStatus !== 'changed' || !request.modes.includes('json')) {
    return { tracking, charged: 0 };
  }
  const { models } = deps;
  if (!models) throw appError('MODEL_NOT_CONFIGURED', 'The changeTracking json mode');
  const question = {
    ...(request.schema ? { schema: request.schema } : {}),
    ...(request.prompt ? { prompt: request.prompt } : {}),
  };
  const context = { accountId: scrape.accountId, url: scrape.url, source: 'firecrawl' };
  const answerOf = (markdown: string) =>
    models.run({ ...context, kind: 'changeTracking' }, (model) =>
      extractJson(model, [{ url: scrape.url, markdown }], question, scrape.signal),
    );
  const before = await answerOf(previous.markdown);
  const after = await answerOf(current.markdown);
  tracking.json = changedFields(before.value, after.value);
  return { tracking, charged: before.charged + after.charged };
}
