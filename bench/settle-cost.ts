/**
 * What the request log adds to a scrape's hot path, in-process on the embedded engine: the
 * reserve and settle transactions of a scrape exactly as ScrapeUseCase runs them, three ways,
 * interleaved in rounds so the machine's load falls on each alike:
 *   - ledger only      (before issue 17: a one-off scrape left no record)
 *   - + request record (one prepared insert into `requests`, 4 more index entries, and the
 *                       upsert of its day in `request_days`, migration 012)
 *   - + kept result    (the record and a 100 KB result in `request_results`)
 * DATA_DIR on tmpfs (/dev/shm) isolates the CPU and SQLite work from the disk's fsyncs; the
 * second run uses a disk folder. Figures: microseconds per scrape (reserve + settle), median
 * of the rounds.
 *   node --import tsx bench/settle-cost.ts [rounds=15] [per-round=300]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount } from '../src/accounts/account-store.js';
import { reserveCredits, settleCredits } from '../src/billing/credit-ledger.js';
import { paramsText } from '../src/scrape/run-record-of.js';
import type { ScrapeOptions } from '../src/scrape/types.js';
import { openStore } from '../src/store/db.js';
import { newId } from '../src/store/ids.js';
import { saveRequestResult } from '../src/store/request-results.js';
import { saveRunRecord } from '../src/store/run-records.js';
import { sampleRunRecord } from '../test/helpers/run-record.js';
import { loadAverage } from './lib/load.js';

const rounds = Number(process.argv[2] ?? 15);
const perRound = Number(process.argv[3] ?? 300);
const body = Buffer.alloc(100 * 1024, 'x');
const options = {
  url: 'https://example.com/catalogue/page-1?sort=price',
  render: false,
  markdown: false,
  headers: {},
  instructions: [],
  blockResources: [],
} as unknown as ScrapeOptions;

type Variant = 'ledger only' | '+ request record' | '+ kept 100 KB result';
const VARIANTS: Variant[] = ['ledger only', '+ request record', '+ kept 100 KB result'];

async function measure(dir: string, label: string) {
  const store = await openStore({ databaseUrl: null, dataDir: dir });
  const { account } = await createAccount(store.db, {
    name: 'bench',
    credits: 1_000_000_000,
    concurrencyLimit: 10,
  });
  const one = async (variant: Variant) => {
    const requestId = newId();
    await store.transact((trx) => reserveCredits(trx, account.id, 1, requestId), {
      durable: false,
    });
    await store.transact(async (trx) => {
      await settleCredits(trx, account.id, 1, requestId, 1);
      if (variant === 'ledger only') return;
      const record = sampleRunRecord({ accountId: account.id, workflowId: null, url: options.url });
      await saveRunRecord(trx, { ...record, id: requestId, params: paramsText(options) });
      if (variant === '+ kept 100 KB result') {
        await saveRequestResult(trx, requestId, account.id, { contentType: 'text/html', body });
      }
    });
  };
  const times = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
  for (const v of VARIANTS) for (let i = 0; i < 50; i++) await one(v); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const v of VARIANTS) {
      const started = performance.now();
      for (let i = 0; i < perRound; i++) await one(v);
      times.get(v)?.push(((performance.now() - started) * 1000) / perRound);
    }
  }
  await store.close();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const base = median(times.get('ledger only') ?? []);
  console.log(`\n${label} (load ${loadAverage()})`);
  console.log('| per scrape | µs (median of rounds) | added |');
  console.log('|---|---|---|');
  for (const v of VARIANTS) {
    const m = median(times.get(v) ?? []);
    console.log(`| ${v} | ${m.toFixed(0)} | ${(m - base).toFixed(0)} |`);
  }
}

for (const [label, dir] of [
  ['DATA_DIR on tmpfs', mkdtempSync('/dev/shm/pagegrab-settle-')],
  ['DATA_DIR on disk', mkdtempSync(join(tmpdir(), 'pagegrab-settle-'))],
] as const) {
  try {
    await measure(dir, label);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
