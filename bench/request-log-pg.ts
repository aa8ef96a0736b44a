/**
 * The request log at scale on PostgreSQL, in process (the store's own queries, no HTTP): one
 * account with 1,000,000 records over 60 days, as bench/request-log.ts seeds them (200
 * hosts, 1 in 7 failed, 1 in 1,000 pending), written by one INSERT … SELECT on a throwaway
 * server (test/helpers/postgres-server.mjs, fsync off). Times, alternating within the run:
 *   - the URL search `q=page-4242` (1 in 5,000) with the trigram index of migration 012 and
 *     without it (dropped, then built again: the build is what an upgrade spends once);
 *   - the overview from the request_days rollup and from a direct aggregate of the records;
 *   - a first page and a host page, for scale.
 *   node --import tsx bench/request-log-pg.ts [iterations=50] [records=1000000]
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { createAccount } from '../src/accounts/account-store.js';
import { openStore } from '../src/store/db.js';
import { fillRequestDays } from '../src/store/migrations/012-request-log-scale.js';
import { DAY_MS } from '../src/store/request-days.js';
import { listRequests, summarizeUsage, usageOf } from '../src/store/request-log.js';
import type { Database } from '../src/store/schema.js';
import { startPostgres } from '../test/helpers/postgres-server.mjs';
import { directTotals } from '../test/helpers/usage-direct.js';
import { loadAverage } from './lib/load.js';

const iterations = Number(process.argv[2] ?? 50);
const RECORDS = Number(process.argv[3] ?? 1_000_000);
const SPAN_MS = 60 * DAY_MS;

const postgres = await startPostgres();
const store = await openStore({ databaseUrl: postgres.adminUrl, dataDir: '/nonexistent' });
const db = store.db as Kysely<Database>;
try {
  const { account } = await createAccount(db, { name: 'log', credits: 0, concurrencyLimit: 10 });
  // Seeded without the trigram index, then the index built: as an upgrade of a large table.
  await sql`drop index requests_url_trgm`.execute(db);
  let started = performance.now();
  const start = Date.now() - SPAN_MS;
  await sql`insert into requests (id, account_id, workflow_id, url, status, status_code,
      target_status, output_type, render, proxy_type, proxy_country, credits, duration_ms,
      error, webhook, created_at, source, host, params)
    select substr(t, 1, 8) || '-' || substr(t, 9, 4) || '-7' || substr(r, 1, 3) || '-8'
        || substr(r, 4, 3) || '-' || substr(r, 7, 12),
      ${account.id}, null, url, status,
      case status when 'failed' then 502 when 'pending' then null else 200 end,
      case status when 'success' then 200 end, 'html', 0, 'datacenter', null,
      case status when 'success' then 1 else 0 end,
      case status when 'pending' then null else 100 + i % 900 end,
      case status when 'failed' then 'Failed to fetch the page: connection refused' end,
      null, at, (array['api','workflow','firecrawl','batch','crawl','schedule'])[i % 6 + 1],
      host, '{"url":"' || url || '"}'
    from (
      select i, at, host, lpad(to_hex(at), 12, '0') as t, md5(i::text) as r,
        'https://' || host || '/catalogue/page-' || (i % 5000) || '?sort=price' as url,
        case when i % 1000 = 0 then 'pending' when i % 7 = 0 then 'failed' else 'success' end
          as status
      from (
        select i, (${start} + floor(i * ${SPAN_MS / RECORDS}::float8))::bigint as at,
          'host-' || (i % 200) || '.example' as host
        from generate_series(0, ${RECORDS - 1}) as i
      ) s
    ) g`.execute(db);
  await fillRequestDays(db as unknown as Kysely<unknown>);
  await sql`analyze requests`.execute(db);
  console.log(
    `seeded ${RECORDS} records in ${Math.round(performance.now() - started)} ms, load ${loadAverage()}`,
  );
  started = performance.now();
  const buildIndex = () =>
    sql`create index requests_url_trgm on requests using gin (lower(url) gin_trgm_ops)`.execute(db);
  await buildIndex();
  const buildMs = performance.now() - started;
  console.log(`trigram index built in ${Math.round(buildMs)} ms`);

  const time = async (n: number, run: () => Promise<unknown>) => {
    for (let i = 0; i < Math.min(3, n); i++) await run();
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await run();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0;
    return `p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms (n=${n})`;
  };
  const page = (filter: object) => () =>
    listRequests(db, account.id, { limit: 50, ...filter }).then((r) => {
      if (r.rows.length === 0) throw new Error('empty page');
    });
  const now = Date.now();
  const firstDay = Math.floor(now / DAY_MS) - 29;
  const overviewRollup = () => usageOf(db, account.id, 30, now);
  const overviewDirect = async () =>
    summarizeUsage(await directTotals(db, account.id, firstDay), firstDay, 30);
  const same = JSON.stringify(await overviewRollup()) === JSON.stringify(await overviewDirect());
  console.log(`overview: rollup and direct aggregate give the same answer: ${same}`);

  console.log(`first page: ${await time(iterations, page({}))}`);
  console.log(`host=host-7.example: ${await time(iterations, page({ host: 'host-7.example' }))}`);
  const search = page({ search: 'page-4242' });
  const few = Math.max(5, Math.floor(iterations / 5));
  for (let round = 1; round <= 2; round++) {
    console.log(`round ${round}, load ${loadAverage()}`);
    console.log(`  q=page-4242 with the trigram index: ${await time(iterations, search)}`);
    await sql`drop index requests_url_trgm`.execute(db);
    console.log(`  q=page-4242 without it (a scan): ${await time(few, search)}`);
    await buildIndex();
    console.log(`  overview from request_days: ${await time(iterations, overviewRollup)}`);
    console.log(`  overview by direct aggregate: ${await time(few, overviewDirect)}`);
  }
} finally {
  await store.close();
  await postgres.stop();
}
