/**
 * What one plain scrape (render=false, HTML, the fixture's 100 KB page, every default on) costs
 * the database: statements by kind and commits, per scrape, on SQLite and on PostgreSQL, one at
 * a time and 8 at once. In process (the test helpers' service, tsx sources): better-sqlite3's
 * and pg's query entry points are wrapped to count, so nothing in src/ knows about it. The
 * embedded figures also give the bytes the data folder grew by. PostgreSQL: the tests' server
 * (test/helpers/postgres-server.mjs), started here when installed.
 *   node --import tsx bench/statements-per-scrape.ts [scrapes=200] [--texts]
 * --texts also lists, per row, each statement's text (its first 90 characters) per scrape.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { startFixtureSite } from '../test/helpers/fixture-site.js';
import { findPostgresBin, startPostgres } from '../test/helpers/postgres-server.mjs';
import { startService, type TestService } from '../test/helpers/service.js';

const args = process.argv.slice(2);
const scrapes = Number(args.find((arg) => !arg.startsWith('--')) ?? 200);
const showTexts = args.includes('--texts');
const counts = new Map<string, number>();
const texts = new Map<string, number>();
let counting = false;
const count = (sqlText: string) => {
  if (!counting) return;
  const kind = (/^\s*(\w+)/.exec(sqlText)?.[1] ?? '?').toLowerCase();
  counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const text = sqlText.replace(/\s+/g, ' ').trim().slice(0, 90);
  texts.set(text, (texts.get(text) ?? 0) + 1);
};

const statementProto = Object.getPrototypeOf(new SqliteDatabase(':memory:').prepare('select 1'));
for (const method of ['run', 'all', 'get', 'iterate'] as const) {
  const original = statementProto[method];
  statementProto[method] = function (this: { source: string }, ...args: unknown[]) {
    count(this.source);
    return original.apply(this, args);
  };
}
const clientQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text: string };
  count(typeof first === 'string' ? first : first.text);
  return (clientQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

function folderBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

async function xactCommits(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'select xact_commit from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0].xact_commit);
  } finally {
    await client.end();
  }
}

async function dataFolder(service: TestService): Promise<string> {
  const { rows } = await sql<{ file: string }>`pragma database_list`.execute(
    service.running.store.db,
  );
  return dirname(rows[0]?.file as string);
}

const site = await startFixtureSite();
const page = encodeURIComponent(`${site.origin}/big`);

async function scrapeAll(service: TestService, concurrency: number, n: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < n) {
        const res = await fetch(
          `${service.baseUrl}/api/scraper?api_key=${service.apiKey}&url=${page}`,
        );
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`scrape answered ${res.status}`);
      }
    }),
  );
}

async function measure(label: string, service: TestService, pgUrl: string | null) {
  const dataDir = pgUrl ? null : await dataFolder(service);
  await scrapeAll(service, 4, 20);
  for (const concurrency of [1, 8]) {
    counts.clear();
    texts.clear();
    const bytesBefore = dataDir && !pgUrl ? folderBytes(dataDir) : 0;
    const commitsBefore = pgUrl ? await xactCommits(pgUrl) : 0;
    counting = true;
    await scrapeAll(service, concurrency, scrapes);
    counting = false;
    // Writes behind the answer (if any) finish before the figures are read.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const per = (value: number) => (value / scrapes).toFixed(2);
    const kinds = [...counts.entries()]
      .sort()
      .map(([kind, n]) => `${kind} ${per(n)}`)
      .join(', ');
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const commits = pgUrl
      ? `${per((await xactCommits(pgUrl)) - commitsBefore - 1)} (pg_stat_database)`
      : per(counts.get('commit') ?? 0);
    const grew =
      dataDir && !pgUrl
        ? `, data folder +${((folderBytes(dataDir) - bytesBefore) / scrapes / 1024).toFixed(1)} KB`
        : '';
    console.log(`| ${label} | ${concurrency} | ${per(total)} | ${commits} | ${kinds}${grew} |`);
    if (showTexts) {
      for (const [text, n] of [...texts].sort((a, b) => b[1] - a[1]))
        console.log(`    ${per(n)}  ${text}`);
    }
  }
}

console.log(`statements-per-scrape: ${scrapes} plain scrapes of a 100 KB page per row`);
console.log('| database | conc | statements/scrape | commits/scrape | by kind |');
console.log('|---|---|---|---|---|');
const sqlite = await startService({ credits: 1_000_000, concurrencyLimit: 100 });
try {
  await measure('SQLite', sqlite, null);
} finally {
  await sqlite.close();
}
if (findPostgresBin()) {
  const server = await startPostgres();
  const service = await startService({
    credits: 1_000_000,
    concurrencyLimit: 100,
    postgres: { url: server.adminUrl },
  });
  try {
    await measure('PostgreSQL', service, server.adminUrl);
  } finally {
    await service.close();
    await server.stop();
  }
} else console.log('PostgreSQL not installed: its row is missing');
await site.close();
