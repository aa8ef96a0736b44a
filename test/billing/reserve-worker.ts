/**
 * A second process for the cross-process reserve test: opens the store on the PostgreSQL
 * URL given as argv[2], prints `ready`, waits for `go` on stdin, fires argv[4] concurrent
 * reserves of 1 credit on account argv[3], and prints `{"ok":<successes>}`.
 */
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { reserveCredits } from '../../src/billing/credit-ledger.js';
import { openStore } from '../../src/store/db.js';

const [url, accountId, countText] = process.argv.slice(2);
if (!url || !accountId || !countText) throw new Error('usage: reserve-worker <url> <account> <n>');
const store = await openStore({ databaseUrl: url, dataDir: '/nonexistent', poolSize: 10 });
// Open the whole pool before `go`, so both processes race from the first reserve.
await Promise.all(Array.from({ length: 10 }, () => sql`select pg_sleep(0.05)`.execute(store.db)));
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === 'go') break;
lines.close();
const results = await Promise.all(
  Array.from({ length: Number(countText) }, (_, i) =>
    reserveCredits(store.db, accountId, 1, `child-${process.pid}-${i}`),
  ),
);
await store.close();
process.stdout.write(`${JSON.stringify({ ok: results.filter((r) => r !== null).length })}\n`);
