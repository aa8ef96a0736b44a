/**
 * Workflow endpoints at scale on the embedded engine: one account with 10,000 workflows and
 * 100,000 request records (20,000 on the measured workflow, the rest 8 per workflow),
 * inserted straight through Kysely into a fresh DATA_DIR, then the built service (as
 * `npm start` runs it, in its own process, bench/lib/servers.ts) serves that folder and this
 * process sends sequential HTTP requests on loopback:
 *   - GET /api/workflow                              (all 10,000, the contract's default)
 *   - GET /api/workflow?limit=100                    (the paging addition)
 *   - GET /api/workflow/requests/{id}/?limit=100     (one workflow's history)
 * The unpaged list is measured twice: unchanged between requests (served from the per-node
 * list cache after a version check) and with a rename before each request (rebuilt).
 * Each figure is the client-side time to the last byte of the body; the last row is the
 * floor: the same list bytes from a bare node:http server.
 *   npm run build && node --import tsx bench/workflows.ts [iterations=200]
 * Targets: list p50 ≤ 50 ms, history p50 ≤ 10 ms.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { createAccount } from '../src/accounts/account-store.js';
import { openStore } from '../src/store/db.js';
import { newId } from '../src/store/ids.js';
import type { Database } from '../src/store/schema.js';
import { startChildServer } from './lib/child-server.js';
import { loadAverage } from './lib/load.js';

const WORKFLOWS = 10_000;
const RECORDS = 100_000;
const HOT_RECORDS = 20_000;
const BATCH = 1000;
const iterations = Number(process.argv[2] ?? 200);

function config(i: number): string {
  return JSON.stringify({
    url: `https://example.com/catalogue/page-${i}?sort=price&dir=asc`,
    render: i % 2 === 0,
    ...(i % 2 === 0
      ? {
          window_width: 1280,
          window_height: 800,
          instructions: [{ wait: '#main' }, { click: 'button.more' }, { delay: 500 }],
        }
      : {}),
    markdown: i % 3 === 0,
    block_ads: true,
    block_cookie_banners: true,
  });
}

async function seed(db: Kysely<Database>, accountId: string): Promise<string> {
  const start = Date.now() - 30 * 86_400_000;
  const ids: string[] = [];
  for (let b = 0; b < WORKFLOWS; b += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, WORKFLOWS - b) }, (_, k) => {
      const i = b + k;
      const id = newId();
      ids.push(id);
      return {
        id,
        account_id: accountId,
        name: `Workflow ${i}`,
        config: config(i),
        archived: i % 10 === 0 ? 1 : 0,
        credits_spent: 0,
        last_run_at: null,
        created_at: start + i * 1000,
        updated_at: start + i * 1000,
      };
    });
    await db.insertInto('workflows').values(rows).execute();
  }
  const hot = ids[WORKFLOWS - 1] as string;
  const others = ids.slice(0, WORKFLOWS - 1);
  for (let b = 0; b < RECORDS; b += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, RECORDS - b) }, (_, k) => {
      const i = b + k;
      const workflowId = i < HOT_RECORDS ? hot : (others[i % others.length] as string);
      const ok = i % 7 !== 0;
      return {
        id: newId(),
        account_id: accountId,
        workflow_id: workflowId,
        url: `https://example.com/catalogue/page-${i % 500}`,
        status: ok ? ('success' as const) : ('failed' as const),
        status_code: ok ? 200 : 502,
        target_status: ok ? 200 : null,
        output_type: 'html',
        render: 0,
        proxy_type: 'datacenter',
        proxy_country: null,
        credits: ok ? 1 : 0,
        duration_ms: 120 + (i % 300),
        error: ok ? null : 'Failed to fetch the page: connection refused',
        webhook: null,
        created_at: start + i * 20,
      };
    });
    await db.insertInto('requests').values(rows).execute();
  }
  return hot;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

interface Measured {
  p50: number;
  p99: number;
  bytes: number;
  items: number;
  body: string;
}

async function measure(
  url: string,
  headers: Record<string, string>,
  n: number,
  beforeEach?: () => Promise<void>,
): Promise<Measured> {
  let bytes = 0;
  let items = 0;
  let body = '';
  const once = async () => {
    await beforeEach?.();
    const started = performance.now();
    const response = await fetch(url, { headers });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`${url}: ${response.status} ${text}`);
    bytes = text.length;
    items = (JSON.parse(text) as unknown[]).length;
    body = text;
    return ms;
  };
  for (let i = 0; i < Math.min(20, n); i++) await once();
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await once());
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), bytes, items, body };
}

const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-bench-workflows-'));
const store = await openStore({ databaseUrl: null, dataDir });
const { account, apiKey } = await createAccount(store.db, {
  name: 'workflows',
  credits: 0,
  concurrencyLimit: 10,
});
const seeded = performance.now();
const hot = await seed(store.db, account.id);
console.log(
  `seeded ${WORKFLOWS} workflows and ${RECORDS} records in ${Math.round(performance.now() - seeded)} ms`,
);
await store.close();
process.env.BENCH_WARM = '0'; // no browser: these routes never render
const service = await startChildServer('service', [dataDir]);
console.log(`built service pid ${service.pid}, load ${loadAverage()}`);
try {
  const headers = { 'x-api-key': apiKey };
  const base = service.url;
  let renames = 0;
  // A change before each request: the list cache must rebuild (the cost after every run/edit).
  const rename = async () => {
    const response = await fetch(`${base}/api/workflow/${hot}`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Hot ${++renames}` }),
    });
    if (response.status !== 200) throw new Error(`rename: ${response.status}`);
    await response.arrayBuffer();
  };
  const cases: [string, string, number, (() => Promise<void>)?][] = [
    [
      'GET /api/workflow (all, unchanged: cached)',
      `${base}/api/workflow`,
      Math.max(20, iterations / 4),
    ],
    [
      'GET /api/workflow (all, changed before each: rebuilt)',
      `${base}/api/workflow`,
      Math.max(20, iterations / 4),
      rename,
    ],
    ['GET /api/workflow?limit=100', `${base}/api/workflow?limit=100`, iterations],
    [
      'GET /api/workflow/requests/{id}/?limit=100',
      `${base}/api/workflow/requests/${hot}/?limit=100`,
      iterations,
    ],
  ];
  const report = (label: string, r: Measured, n: number) =>
    console.log(
      `${label}: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms ` +
        `(${r.items} items, ${(r.bytes / 1024).toFixed(0)} KiB, n=${n})`,
    );
  let wholeList = '';
  for (const [label, url, n, beforeEach] of cases) {
    const r = await measure(url, headers, n, beforeEach);
    wholeList ||= r.body;
    report(label, r, n);
  }
  // The floor: the same bytes from a bare node:http server, also in its own process.
  const file = join(dataDir, 'list.json');
  writeFileSync(file, wholeList);
  const bare = await startChildServer('bare-bytes', [file]);
  try {
    const n = Math.max(20, iterations / 4);
    report('bare node:http, the same list bytes', await measure(bare.url, {}, n), n);
  } finally {
    await bare.stop();
  }
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
