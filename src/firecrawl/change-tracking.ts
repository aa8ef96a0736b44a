/**
 * Firecrawl's `changeTracking` format: the page's Markdown against the same account's
 * previous scrape of the same URL (scrape/output/page-changes.ts, shared with the native
 * `change_tracking` output) as `changeStatus` new / same / changed / removed and, in
 * `git-diff` mode, a unified diff of the Markdown. In `json` mode, on a
 * changed page, the operator's model reads the previous and the current Markdown with the
 * caller's schema and/or prompt (two paid model calls, as Firecrawl makes them) and
 * `json` holds each top-level field whose answer differs as `{previous, current}`; a new,
 * same or removed page asks the model nothing.
 */
import { appError } from '../errors.js';
import type { ModelCalls } from '../models/model-calls.js';
import { extractJson, schemaValidator } from '../models/structured-answer.js';
import {
  type ChangeStatus,
  changedFields,
  type PreviousScrape,
  pageChangeOf,
  previousScrape,
  type ScrapeHistory,
} from '../scrape/output/page-changes.js';

export interface ChangeTrackingRequest {
  modes: ('git-diff' | 'json')[];
  tag: string | null;
  /** The json mode's questions to the model: a schema, a prompt or both. */
  schema?: Record<string, unknown>;
  prompt?: string;
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
  const { diff, ...change } = pageChangeOf(current, previous);
  return {
    ...change,
    tag: request.tag,
    ...(diff !== null && request.modes.includes('git-diff') ? { diff: { text: diff } } : {}),
  };
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

export interface TrackingDeps extends ScrapeHistory {
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
  const previous = await previousScrape(deps, {
    accountId: scrape.accountId,
    url: scrape.url,
    beforeId: scrape.requestId,
  });
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
