/**
 * Change tracking without a model, shared by the Firecrawl door's `changeTracking` format
 * (firecrawl/change-tracking.ts) and the native `change_tracking` output
 * (change-tracking-output.ts): the page's Markdown against the same account's previous
 * scrape of the same URL (its kept result, RESULT_RETENTION_DAYS), as `changeStatus`
 * new / same / changed / removed (the page now answers 404 or 410), a unified diff of the
 * Markdown (the `diff` package), and the field-by-field comparison of two model answers.
 */
import { createTwoFilesPatch } from 'diff';
import type { Kysely } from 'kysely';
import type { KeptResults } from '../../store/kept-results.js';
import { previousScrapeOf } from '../../store/previous-scrape.js';
import type { Database } from '../../store/schema.js';

export type ChangeStatus = 'new' | 'same' | 'changed' | 'removed';

export interface PreviousScrape {
  markdown: string;
  createdAt: number;
}

export interface PageChange {
  previousScrapeAt: string | null;
  changeStatus: ChangeStatus;
  visibility: 'visible' | 'hidden';
  /** The unified diff of the Markdown; null: no previous scrape to compare with. */
  diff: string | null;
}

export function pageChangeOf(
  current: { markdown: string; statusCode: number },
  previous: PreviousScrape | null,
): PageChange {
  const gone = current.statusCode === 404 || current.statusCode === 410;
  const changeStatus: ChangeStatus =
    previous === null
      ? 'new'
      : gone
        ? 'removed'
        : previous.markdown === current.markdown
          ? 'same'
          : 'changed';
  return {
    previousScrapeAt: previous ? new Date(previous.createdAt).toISOString() : null,
    changeStatus,
    visibility: gone ? 'hidden' : 'visible',
    diff: previous
      ? createTwoFilesPatch('previous', 'current', previous.markdown, current.markdown)
      : null,
  };
}

/**
 * A kept result's Markdown, or null when it has none (another format was asked then): a
 * Firecrawl Document and the native change_tracking answer both hold it as `markdown`.
 */
export function markdownOfKept(body: Buffer): string | null {
  try {
    const page = JSON.parse(body.toString('utf8')) as { markdown?: unknown };
    return typeof page.markdown === 'string' ? page.markdown : null;
  } catch {
    return null;
  }
}

/** Where the previous scrape of a URL is read: the request log and its kept results. */
export interface ScrapeHistory {
  db: Kysely<Database>;
  keptResults: Pick<KeptResults, 'read'>;
}

/**
 * The account's previous successful scrape of `url` with the same output type (the door's
 * `document`, the native `change_tracking`) and its Markdown kept; null: none (or not kept).
 */
export async function previousScrape(
  history: ScrapeHistory,
  scrape: { accountId: string; url: string; beforeId: string },
  outputType: 'document' | 'change_tracking' = 'document',
): Promise<PreviousScrape | null> {
  const { accountId, url, beforeId } = scrape;
  const previous = await previousScrapeOf(history.db, accountId, url, beforeId, outputType);
  if (!previous) return null;
  const kept = await history.keptResults.read(accountId, previous.id);
  const markdown = kept ? markdownOfKept(kept.body) : null;
  return markdown === null ? null : { markdown, createdAt: previous.createdAt };
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
      // a caller's field may be named __proto__: defined, never assigned
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
