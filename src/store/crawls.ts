/**
 * A crawl's rows beyond its batch (migration 009): the `crawls` row, the frontier (the
 * crawl's `batch_pages`, one per normalised URL) and `crawl_hosts`, the politeness every
 * crawl and node shares.
 * Row queries only: what a crawl decides (politeness, redirects) is in jobs/crawls/.
 */
import { type Kysely, sql } from 'kysely';
import type { BatchPagesTable } from './batches.js';
import { type BatchPage, toPage } from './batches-pages.js';
import type { Dialect } from './dialect.js';
import type { Database } from './schema.js';

export interface CrawlsTable {
  id: string;
  account_id: string;
  url: string;
  /** JSON text of the crawl's options (jobs/crawls/crawl-options.ts). */
  options: string;
  bytes_stored: number;
  created_at: number;
  expires_at: number;
}

export interface CrawlHostsTable {
  host: string;
  next_at: number;
  backoff_ms: number;
  robots: string | null;
  robots_at: number | null;
}

type CrawlDatabase = Database & {
  crawls: CrawlsTable;
  crawl_hosts: CrawlHostsTable;
  batch_pages: BatchPagesTable;
  batches: { id: string; total: number; account_id: string; status: string };
};

export function crawlTables(db: Kysely<Database>): Kysely<CrawlDatabase> {
  return db.withTables<{
    crawls: CrawlsTable;
    crawl_hosts: CrawlHostsTable;
    batch_pages: BatchPagesTable;
    batches: { id: string; total: number; account_id: string; status: string };
  }>();
}

export interface CrawlRow {
  id: string;
  accountId: string;
  url: string;
  options: string;
  bytesStored: number;
  createdAt: number;
  expiresAt: number;
}

export async function insertCrawl(db: Kysely<Database>, crawl: Omit<CrawlRow, 'bytesStored'>) {
  await crawlTables(db)
    .insertInto('crawls')
    .values({
      id: crawl.id,
      account_id: crawl.accountId,
      url: crawl.url,
      options: crawl.options,
      bytes_stored: 0,
      created_at: crawl.createdAt,
      expires_at: crawl.expiresAt,
    })
    .execute();
}

export async function getCrawl(db: Kysely<Database>, id: string): Promise<CrawlRow | null> {
  const row = await crawlTables(db)
    .selectFrom('crawls')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    options: row.options,
    bytesStored: Number(row.bytes_stored),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/** A URL the frontier may take in: normalised, with its host and discovery depth. */
export interface FrontierUrl {
  url: string;
  normUrl: string;
  host: string;
  depth: number;
}

/** Keys looked up per statement (well inside both engines' bound-parameter limits). */
const LOOKUP_CHUNK = 200;

/**
 * Queues the URLs the crawl has not seen, while it holds fewer than `limit` pages, after its
 * last page; returns how many. Call within the transaction that locked the crawl's batch row (countPageEnd or
 * insertBatch): positions come from its `total`, and no other writer adds to it meanwhile.
 */
export async function addToFrontier(
  db: Kysely<Database>,
  batchId: string,
  urls: readonly FrontierUrl[],
  limit: number,
): Promise<number> {
  if (urls.length === 0) return 0;
  const t = crawlTables(db);
  const batch = await t
    .selectFrom('batches')
    .select(['total'])
    .where('id', '=', batchId)
    .executeTakeFirstOrThrow();
  const room = limit - Number(batch.total);
  if (room <= 0) return 0;
  const fresh = new Map<string, FrontierUrl>();
  for (const url of urls) if (!fresh.has(url.normUrl)) fresh.set(url.normUrl, url);
  const keys = [...fresh.keys()];
  for (let start = 0; start < keys.length; start += LOOKUP_CHUNK) {
    const known = await t
      .selectFrom('batch_pages')
      .select('norm_url')
      .where('batch_id', '=', batchId)
      .where('norm_url', 'in', keys.slice(start, start + LOOKUP_CHUNK))
      .execute();
    for (const row of known) if (row.norm_url) fresh.delete(row.norm_url);
  }
  const added = [...fresh.values()].slice(0, room);
  if (added.length === 0) return 0;
  // Positions follow every row of the crawl, blocked ones included (they keep theirs).
  const last = await t
    .selectFrom('batch_pages')
    .select((eb) => eb.fn.max('idx').as('idx'))
    .where('batch_id', '=', batchId)
    .executeTakeFirst();
  const first = Number(last?.idx ?? -1) + 1;
  for (let start = 0; start < added.length; start += LOOKUP_CHUNK) {
    const rows = added.slice(start, start + LOOKUP_CHUNK).map((url, i) => ({
      id: `${batchId}.${first + start + i}`,
      batch_id: batchId,
      idx: first + start + i,
      url: url.url,
      norm_url: url.normUrl,
      host: url.host,
      depth: url.depth,
      state: 'queued' as const,
      credits: 0,
      retries: 0,
    }));
    await t.insertInto('batch_pages').values(rows).execute();
  }
  await t
    .updateTable('batches')
    .set((eb) => ({ total: eb('total', '+', added.length) }))
    .where('id', '=', batchId)
    .execute();
  return added.length;
}

/** Marks a normalised URL as seen without queueing it (a redirect's target). */
export async function knownInFrontier(
  db: Kysely<Database>,
  batchId: string,
  normUrl: string,
): Promise<boolean> {
  const row = await crawlTables(db)
    .selectFrom('batch_pages')
    .select('id')
    .where('batch_id', '=', batchId)
    .where('norm_url', '=', normUrl)
    .executeTakeFirst();
  return row !== undefined;
}

/** The state of the crawl's row for a normalised URL, other than `pageId`'s; null: none. */
export async function stateOfKey(
  db: Kysely<Database>,
  batchId: string,
  normUrl: string,
  pageId: string,
): Promise<string | null> {
  const row = await crawlTables(db)
    .selectFrom('batch_pages')
    .select('state')
    .where('batch_id', '=', batchId)
    .where('norm_url', '=', normUrl)
    .where('id', '!=', pageId)
    .executeTakeFirst();
  return row?.state ?? null;
}

/** The crawl's row for a normalised URL, if any. */
export async function rowOfKey(
  db: Kysely<Database>,
  batchId: string,
  normUrl: string,
): Promise<{ id: string; state: string } | undefined> {
  return crawlTables(db)
    .selectFrom('batch_pages')
    .select(['id', 'state'])
    .where('batch_id', '=', batchId)
    .where('norm_url', '=', normUrl)
    .executeTakeFirst();
}

/**
 * Takes the crawl's batch row lock (PostgreSQL) by writing it: pages ending together, and
 * links joining the frontier, decide one after the other.
 */
export async function lockCrawlRow(db: Kysely<Database>, batchId: string): Promise<void> {
  await crawlTables(db)
    .updateTable('batches')
    .set((eb) => ({ total: eb('total', '+', 0) }))
    .where('id', '=', batchId)
    .execute();
}

/** Adds a redirect's target to the crawl's keys as a `redirected` row, after its last row. */
export async function insertRedirectedKey(
  db: Kysely<Database>,
  batchId: string,
  target: FrontierUrl,
): Promise<void> {
  const t = crawlTables(db);
  const last = await t
    .selectFrom('batch_pages')
    .select((eb) => eb.fn.max('idx').as('idx'))
    .where('batch_id', '=', batchId)
    .executeTakeFirst();
  const idx = Number(last?.idx ?? -1) + 1;
  await t
    .insertInto('batch_pages')
    .values({
      id: `${batchId}.${idx}`,
      batch_id: batchId,
      idx,
      url: target.url,
      norm_url: target.normUrl,
      host: target.host,
      depth: target.depth,
      state: 'redirected',
      credits: 0,
      retries: 0,
    })
    .execute();
}

/**
 * Marks a queued row `redirected` (no longer a page of the crawl, so out of its total);
 * false when it was no longer queued.
 */
export async function redirectQueuedRow(
  db: Kysely<Database>,
  batchId: string,
  rowId: string,
): Promise<boolean> {
  const t = crawlTables(db);
  const dropped = await t
    .updateTable('batch_pages')
    .set({ state: 'redirected' })
    .where('id', '=', rowId)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  if (Number(dropped.numUpdatedRows) === 0) return false;
  await t
    .updateTable('batches')
    .set((eb) => ({ total: eb('total', '-', 1) }))
    .where('id', '=', batchId)
    .execute();
  return true;
}

/** Hosts whose next start is after `now`. */
export async function hostsWaiting(
  db: Kysely<Database>,
  now: number,
): Promise<{ host: string; nextAt: number }[]> {
  const rows = await crawlTables(db)
    .selectFrom('crawl_hosts')
    .select(['host', 'next_at'])
    .where('next_at', '>', now)
    .execute();
  return rows.map((row) => ({ host: row.host, nextAt: Number(row.next_at) }));
}

/** Hosts running at least `bound` pages, over every crawl. */
export async function hostsRunningAtLeast(db: Kysely<Database>, bound: number): Promise<string[]> {
  const rows = await crawlTables(db)
    .selectFrom('batch_pages')
    .select(['host', (eb) => eb.fn.countAll().as('n')])
    .where('state', '=', 'running')
    .where('host', 'is not', null)
    .groupBy('host')
    .having((eb) => eb.fn.countAll(), '>=', bound)
    .execute();
  return rows.flatMap((row) => (row.host ? [row.host] : []));
}

/**
 * The crawl's first queued page due by `now` on none of the `busy` hosts; on PostgreSQL
 * locked, skipping rows another node is taking.
 */
export async function nextQueuedPage(
  trx: Kysely<Database>,
  dialect: Dialect,
  batchId: string,
  now: number,
  busy: ReadonlySet<string>,
): Promise<{ id: string; host: string | null } | undefined> {
  let next = crawlTables(trx)
    .selectFrom('batch_pages')
    .select(['id', 'host'])
    .where('batch_id', '=', batchId)
    .where('state', '=', 'queued')
    .where((eb) => eb.or([eb('not_before', 'is', null), eb('not_before', '<=', now)]))
    .orderBy('idx')
    .limit(1);
  if (busy.size > 0) next = next.where('host', 'not in', [...busy]);
  return (dialect === 'postgres' ? next.forUpdate().skipLocked() : next).executeTakeFirst();
}

/**
 * The host's row, created if new and locked (PostgreSQL) till the transaction ends, with
 * its pages running on every crawl and node: two nodes taking pages of one host queue here.
 */
export async function lockHost(
  trx: Kysely<Database>,
  dialect: Dialect,
  host: string,
): Promise<{ nextAt: number; running: number }> {
  const c = crawlTables(trx);
  await c
    .insertInto('crawl_hosts')
    .values({ host, next_at: 0, backoff_ms: 0 })
    .onConflict((oc) => oc.column('host').doNothing())
    .execute();
  let hostRow = c.selectFrom('crawl_hosts').select(['next_at']).where('host', '=', host);
  if (dialect === 'postgres') hostRow = hostRow.forUpdate();
  const locked = await hostRow.executeTakeFirstOrThrow();
  const running = await c
    .selectFrom('batch_pages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('state', '=', 'running')
    .where('host', '=', host)
    .executeTakeFirstOrThrow();
  return { nextAt: Number(locked.next_at), running: Number(running.n) };
}

/** Marks a queued page running on `lane`; null when it was no longer queued. */
export async function markPageRunning(
  trx: Kysely<Database>,
  pageId: string,
  lane: number,
): Promise<BatchPage | null> {
  const row = await crawlTables(trx)
    .updateTable('batch_pages')
    .set({ state: 'running', lane })
    .where('id', '=', pageId)
    .where('state', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
  return row ? toPage(row as never) : null;
}

export async function setHostNextAt(
  trx: Kysely<Database>,
  host: string,
  nextAt: number,
): Promise<void> {
  await crawlTables(trx)
    .updateTable('crawl_hosts')
    .set({ next_at: nextAt })
    .where('host', '=', host)
    .execute();
}

/** The crawl's pages queued and running, and the soonest `not_before`, read in one statement. */
export async function openPagesOf(
  db: Kysely<Database>,
  batchId: string,
): Promise<{ queued: number; running: number; soonest: number | null }> {
  const row = await crawlTables(db)
    .selectFrom('batch_pages')
    .select([
      sql<number>`sum(case when state = 'queued' then 1 else 0 end)`.as('queued'),
      sql<number>`sum(case when state = 'running' then 1 else 0 end)`.as('running'),
      sql<number | null>`min(case when state = 'queued' then not_before end)`.as('soonest'),
    ])
    .where('batch_id', '=', batchId)
    .where('state', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return {
    queued: Number(row?.queued ?? 0),
    running: Number(row?.running ?? 0),
    soonest: row?.soonest == null ? null : Number(row.soonest),
  };
}

/**
 * Puts a throttled page back in the queue, to start no sooner than `notBefore`; its
 * reservation was refunded, so it starts again from nothing. False when it was not running.
 */
export async function requeuePage(
  db: Kysely<Database>,
  pageId: string,
  notBefore: number,
): Promise<boolean> {
  const result = await crawlTables(db)
    .updateTable('batch_pages')
    .set((eb) => ({
      state: 'queued',
      lane: null,
      plan: null,
      result: null,
      request_id: null,
      not_before: notBefore,
      retries: eb('retries', '+', 1),
    }))
    .where('id', '=', pageId)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The host answered 429/503: nothing starts there before `until`; returns the backoff now. */
export async function slowHostDown(
  db: Kysely<Database>,
  host: string,
  backoffMs: number,
  until: number,
): Promise<void> {
  const t = crawlTables(db);
  await t
    .insertInto('crawl_hosts')
    .values({ host, next_at: until, backoff_ms: backoffMs })
    .onConflict((oc) =>
      oc.column('host').doUpdateSet({
        backoff_ms: backoffMs,
        next_at: sql<number>`case when crawl_hosts.next_at > ${until} then crawl_hosts.next_at else ${until} end`,
      }),
    )
    .execute();
}

/** The host answered normally: its backoff is forgotten. */
export async function hostRecovered(db: Kysely<Database>, host: string): Promise<void> {
  await crawlTables(db)
    .updateTable('crawl_hosts')
    .set({ backoff_ms: 0 })
    .where('host', '=', host)
    .where('backoff_ms', '>', 0)
    .execute();
}

export async function hostBackoff(db: Kysely<Database>, host: string): Promise<number> {
  const row = await crawlTables(db)
    .selectFrom('crawl_hosts')
    .select('backoff_ms')
    .where('host', '=', host)
    .executeTakeFirst();
  return Number(row?.backoff_ms ?? 0);
}

/** The host's stored robots.txt and when it was read; null when never read. */
export async function storedRobots(
  db: Kysely<Database>,
  host: string,
): Promise<{ text: string; at: number } | null> {
  const row = await crawlTables(db)
    .selectFrom('crawl_hosts')
    .select(['robots', 'robots_at'])
    .where('host', '=', host)
    .executeTakeFirst();
  if (!row || row.robots === null || row.robots_at === null) return null;
  return { text: row.robots, at: Number(row.robots_at) };
}

export async function saveRobots(db: Kysely<Database>, host: string, text: string, at: number) {
  await crawlTables(db)
    .insertInto('crawl_hosts')
    .values({ host, next_at: 0, backoff_ms: 0, robots: text, robots_at: at })
    .onConflict((oc) => oc.column('host').doUpdateSet({ robots: text, robots_at: at }))
    .execute();
}

/** Counts a page's stored bytes on its crawl; returns the account's total over live crawls. */
export async function addStoredBytes(
  db: Kysely<Database>,
  crawlId: string,
  accountId: string,
  bytes: number,
  now = Date.now(),
): Promise<number> {
  const t = crawlTables(db);
  if (bytes > 0) {
    await t
      .updateTable('crawls')
      .set((eb) => ({ bytes_stored: eb('bytes_stored', '+', bytes) }))
      .where('id', '=', crawlId)
      .execute();
  }
  const row = await t
    .selectFrom('crawls')
    .select((eb) => eb.fn.sum<number>('bytes_stored').as('bytes'))
    .where('account_id', '=', accountId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/** The account's crawls still running, newest first. */
export async function activeCrawls(
  db: Kysely<Database>,
  accountId: string,
): Promise<{ id: string; url: string; options: string; version: string }[]> {
  return crawlTables(db)
    .withTables<{ batches: { id: string; status: string; version: string } }>()
    .selectFrom('crawls')
    .innerJoin('batches', 'batches.id', 'crawls.id')
    .select(['crawls.id', 'crawls.url', 'crawls.options', 'batches.version'])
    .where('crawls.account_id', '=', accountId)
    .where('batches.status', '=', 'scraping')
    .orderBy('crawls.id', 'desc')
    .execute();
}

/** The account's crawls (any status, not expired), newest first: the dashboard's list. */
export async function listCrawls(db: Kysely<Database>, accountId: string, limit: number) {
  return crawlTables(db)
    .withTables<{
      batches: {
        id: string;
        status: string;
        total: number;
        ended: number;
        credits_used: number;
        error: string | null;
      };
    }>()
    .selectFrom('crawls')
    .innerJoin('batches', 'batches.id', 'crawls.id')
    .select([
      'crawls.id',
      'crawls.url',
      'crawls.created_at',
      'crawls.expires_at',
      'batches.status',
      'batches.total',
      'batches.ended',
      'batches.credits_used',
      'batches.error',
    ])
    .where('crawls.account_id', '=', accountId)
    .where('crawls.expires_at', '>', Date.now())
    .orderBy('crawls.id', 'desc')
    .limit(limit)
    .execute();
}

/** URLs robots.txt kept the crawl from. */
export async function readBlocked(db: Kysely<Database>, batchId: string): Promise<string[]> {
  const rows = await crawlTables(db)
    .selectFrom('batch_pages')
    .select('url')
    .where('batch_id', '=', batchId)
    .where('state', '=', 'blocked')
    .orderBy('idx')
    .execute();
  return rows.map((row) => row.url);
}

/** Deletes crawls rows whose results expired (their batch rows go with purgeBatches). */
export async function purgeCrawls(db: Kysely<Database>, now = Date.now()): Promise<number> {
  const result = await crawlTables(db)
    .deleteFrom('crawls')
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
