/**
 * Firecrawl's `changeTracking` format: the page's Markdown against the same account's
 * previous scrape of the same URL (its kept result, RESULT_RETENTION_DAYS), as
 * `changeStatus` new / same / changed / removed (the page now answers 404 or 410) and, in
 * `git-diff` mode, a unified diff of the Markdown (the `diff` package).
 */
import { createTwoFilesPatch } from 'diff';
import type { Kysely } from 'kysely';
import type { PageDocument } from '../scrape/types.js';
import type { KeptResults } from '../store/kept-results.js';
import { previousScrapeOf } from '../store/previous-scrape.js';
import type { Database } from '../store/schema.js';

export type ChangeStatus = 'new' | 'same' | 'changed' | 'removed';

export interface ChangeTrackingRequest {
  modes: ('git-diff' | 'json')[];
  tag: string | null;
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
