/**
 * The request log at scale on the embedded engine: one account with 1,000,000 request
 * records over 60 days (200 target hosts, 100 workflows, 1 in 7 failed, 1 in 1,000 pending,
 * every source), written straight through better-sqlite3 into a fresh DATA_DIR with ids
 * that are UUIDv7 of their times as the service makes them; then the built service (its own
 * process, bench/lib/servers.ts) serves that folder and this process sends sequential HTTP
 * requests on loopback, time to the last byte of the body:
 *   - GET /api/requests (first page, 50), a page 500,000 records deep (keyset cursor),
 *     each filter alone (status, rare status, host, workflow, source, one day, URL text),
 *     one record's detail, and the overview's figures (/api/account/usage, 30 days, read from
 *     the request_days rollup, filled from the seeded records as migration 012 does).
 *   npm run build && node --import tsx bench/request-log.ts [iterations=200] [records=1000000]
 * Target: page p50 <= 20 ms.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { createAccount } from '../src/accounts/account-store.js';
import { openStore } from '../src/store/db.js';
import { fillRequestDays } from '../src/store/migrations/012-request-log-scale.js';
import { startChildServer } from './lib/child-server.js';
import { loadAverage } from './lib/load.js';

const iterations = Number(process.argv[2] ?? 200);
const RECORDS = Number(process.argv[3] ?? 1_000_000);
const HOSTS = 200;
const WORKFLOWS = 100;
const SPAN_MS = 60 * 86_400_000;
const SOURCES = ['api', 'workflow', 'firecrawl', 'batch', 'crawl', 'schedule'];

/** A UUIDv7 of time `ms`, as uuidv7() would make it (random tail). */
function idAt(ms: number): string {
  const t = ms.toString(16).padStart(12, '0');
  const r = randomBytes(10).toString('hex');
  return `${t.slice(0, 8)}-${t.slice(8)}-7${r.slice(0, 3)}-8${r.slice(3, 6)}-${r.slice(6, 18)}`;
}

const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-bench-log-'));
const store = await openStore({ databaseUrl: null, dataDir });
const { account, apiKey } = await createAccount(store.db, {
  name: 'log',
  credits: 0,
  concurrencyLimit: 10,
});
await store.close();

const workflowIds = Array.from({ length: WORKFLOWS }, (_, i) => idAt(Date.now() - SPAN_MS - i));
const started = performance.now();
{
  const db = new Database(join(dataDir, 'pagegrab.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    `insert into requests (id, account_id, workflow_id, url, status, status_code, target_status,
      output_type, render, proxy_type, proxy_country, credits, duration_ms, error, webhook,
      created_at, source, host, params)
     values (?, ?, ?, ?, ?, ?, ?, 'html', 0, 'datacenter', null, ?, ?, ?, null, ?, ?, ?, ?)`,
  );
  const start = Date.now() - SPAN_MS;
  const step = SPAN_MS / RECORDS;
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const at = Math.floor(start + i * step);
      const host = `host-${i % HOSTS}.example`;
      const source = SOURCES[i % SOURCES.length] as string;
      const workflowId = source === 'workflow' ? (workflowIds[i % WORKFLOWS] as string) : null;
      const status = i % 1000 === 0 ? 'pending' : i % 7 === 0 ? 'failed' : 'success';
      const url = `https://${host}/catalogue/page-${i % 5000}?sort=price`;
      insert.run(
        idAt(at),
        account.id,
        workflowId,
        url,
        status,
        status === 'failed' ? 502 : status === 'pending' ? null : 200,
        status === 'success' ? 200 : null,
        status === 'success' ? 1 : 0,
        status === 'pending' ? null : 100 + (i % 900),
        status === 'failed' ? 'Failed to fetch the page: connection refused' : null,
        at,
        source,
        host,
        JSON.stringify({ url, render: false, markdown: false }),
      );
    }
  });
  for (let b = 0; b < RECORDS; b += 10_000) batch(b, Math.min(RECORDS, b + 10_000));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
{
  // The overview's rollup from the records, as migration 012 fills it on an upgrade.
  const filled = await openStore({ databaseUrl: null, dataDir });
  await fillRequestDays(filled.db as unknown as Kysely<unknown>);
  await filled.close();
}
console.log(`seeded ${RECORDS} records in ${Math.round(performance.now() - started)} ms`);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function measure(url: string, n: number) {
  let items = 0;
  const once = async () => {
    const t = performance.now();
    const response = await fetch(url, { headers: { 'x-api-key': apiKey } });
    const text = await response.text();
    const ms = performance.now() - t;
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${text}`);
    const body = JSON.parse(text) as { records?: unknown[] };
    items = body.records?.length ?? 1;
    return ms;
  };
  for (let i = 0; i < Math.min(10, n); i++) await once();
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), items };
}

process.env.BENCH_WARM = '0';
const service = await startChildServer('service', [dataDir]);
console.log(`built service pid ${service.pid}, load ${loadAverage()}`);
try {
  const base = `${service.url}/api/requests`;
  const middle = (await (
    await fetch(`${base}?limit=1&to=${Date.now() - SPAN_MS / 2}`, {
      headers: { 'x-api-key': apiKey },
    })
  ).json()) as { records: { id: string }[] };
  const deep = middle.records[0]?.id as string;
  const dayStart = Date.now() - 10 * 86_400_000;
  const cases: [string, string, number][] = [
    ['first page', base, iterations],
    ['a page 500,000 records deep (before=<id>)', `${base}?before=${deep}`, iterations],
    ['status=failed', `${base}?status=failed`, iterations],
    ['status=pending (1 in 1,000)', `${base}?status=pending`, iterations],
    ['host=host-7.example', `${base}?host=host-7.example`, iterations],
    ['workflow_id=<one of 100>', `${base}?workflow_id=${workflowIds[3]}`, iterations],
    ['source=firecrawl', `${base}?source=firecrawl`, iterations],
    ['one day (from, to)', `${base}?from=${dayStart}&to=${dayStart + 86_400_000}`, iterations],
    ['host + status=failed', `${base}?host=host-7.example&status=failed`, iterations],
    ['q=page-4242 (URL text, 1 in 5,000)', `${base}?q=page-4242`, Math.max(10, iterations / 10)],
    ['one record (GET /api/requests/{id})', `${base}/${deep}`, iterations],
    ['overview (GET /api/account/usage)', `${service.url}/api/account/usage`, 10],
  ];
  for (const [label, url, n] of cases) {
    const r = await measure(url, n);
    console.log(
      `${label}: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.items} items, n=${n})`,
    );
  }
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
