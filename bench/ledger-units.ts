/**
 * The storage side of one plain scrape, in process: reserve, then settle with its request
 * record and day (billing/credits.ts), 8 at a time, on SQLite (a temporary DATA_DIR on disk),
 * through the commit group's statement units (`transactSql`, what the service runs) against
 * the same units through Kysely (a ledger without `transactSql`: the path before issue 26's
 * statement units), alternating in one run. Prints the main thread's CPU per scrape (user +
 * system, process.cpuUsage) and scrapes per second, medians over the rounds.
 *   node --import tsx bench/ledger-units.ts [--scrapes 2000] [--rounds 5]
 */
import { parseArgs } from 'node:util';
import { endRequest, type Ledger, reserve } from '../src/billing/credits.js';
import { newId } from '../src/store/ids.js';
import type { RunRecord } from '../src/store/run-records.js';
import { openTestStore } from '../test/helpers/test-store.js';

const { values } = parseArgs({
  options: {
    scrapes: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '5' },
  },
});
const scrapes = Number(values.scrapes);
const rounds = Number(values.rounds);
const CONCURRENCY = 8;

const harness = await openTestStore('sqlite');
const { store } = harness;
const accountId = newId();
await store.db
  .insertInto('accounts')
  .values({
    id: accountId,
    name: 'bench',
    credits: 1e12,
    concurrency_limit: 100,
    webhook_secret: 'bench',
    created_at: Date.now(),
  })
  .execute();

function recordOf(id: string): RunRecord {
  return {
    id,
    accountId,
    workflowId: null,
    url: 'http://127.0.0.1/big',
    status: 'success',
    statusCode: 200,
    targetStatus: 200,
    outputType: 'html',
    render: false,
    proxyType: 'none',
    proxyCountry: null,
    credits: 1,
    durationMs: 3,
    error: null,
    webhook: null,
    createdAt: Date.now(),
    source: 'api',
    host: '127.0.0.1',
    params: '{}',
  };
}

async function scrapeStorage(ledger: Ledger): Promise<void> {
  const request = { accountId, requestId: newId() };
  if ((await reserve(ledger, request, 1)) === null) throw new Error('short of credits');
  await endRequest(ledger, {
    ...request,
    charged: 1,
    held: 1,
    record: recordOf(request.requestId),
  });
}

async function measure(ledger: Ledger): Promise<{ cpuUs: number; perSecond: number }> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < scrapes) await scrapeStorage(ledger);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / scrapes, perSecond: scrapes / seconds };
}

const ways: [string, Ledger][] = [
  ['statement units (transactSql)', store],
  ['through Kysely (transact)', { db: store.db, dialect: store.dialect, transact: store.transact }],
];
const results = new Map<string, { cpuUs: number; perSecond: number }[]>();
await measure(store); // warm-up: statements prepared, templates compiled
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ways : [...ways].reverse();
  for (const [label, ledger] of order) {
    const list = results.get(label) ?? [];
    list.push(await measure(ledger));
    results.set(label, list);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(
  `ledger-units: ${scrapes} reserve + settle-with-record per round, ${CONCURRENCY} at once, ${rounds} rounds (medians), SQLite on disk`,
);
console.log('| way | CPU µs/scrape | scrapes/s |');
console.log('|---|---|---|');
for (const [label] of ways) {
  const list = results.get(label) ?? [];
  console.log(
    `| ${label} | ${median(list.map((r) => r.cpuUs)).toFixed(0)} | ${median(list.map((r) => r.perSecond)).toFixed(0)} |`,
  );
}
await harness.close();
