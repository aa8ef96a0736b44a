/**
 * The floor of the plain scrape (issue 26): in one run, the bare undici proxy, a ladder of
 * minimal servers that import no pagegrab code, each adding one part the service cannot do
 * without (bench/lib/floor-server.ts: a Fastify, b + key lookup, c + one durable SQLite write
 * through better-sqlite3, group-committed, d the same through Kysely, e + a pino line, f + a
 * request record in the same commit), then the service itself; with --postgres, c and d on
 * PostgreSQL (one statement per request) and the service on PostgreSQL; g adds to f what the
 * defaults need (the block check, the day rollup, the kept result), each at its cheapest: the
 * floor of the goal's "every default on". The 100 KB page at
 * concurrency 8 (--connections), --rounds rounds alternating the order; medians of req/s,
 * the ratio to the bare proxy and the server's CPU per request.
 *   node --import tsx bench/floor-scrape.ts [--seconds 4] [--rounds 3] [--postgres]
 * If rung c or d is already under the goal (0.85x on SQLite, 0.7x on PostgreSQL), no change to
 * the service alone can reach it while it keeps a durable ledger write per request on this stack.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startPostgres } from '../test/helpers/postgres-server.mjs';
import { type ChildServer, startChildServer } from './lib/child-server.js';
import { cpuSeconds, type LoadResult, loadAverage, runLoad } from './lib/load.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    postgres: { type: 'boolean', default: false },
  },
});
const durationMs = Number(values.seconds) * 1000;
const rounds = Number(values.rounds);
const connections = Number(values.connections);

const fixture = await startChildServer('fixture');
const postgres = values.postgres ? await startPostgres() : null;
const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrab-floor-'));
  dirs.push(dir);
  return dir;
};
async function freshDatabase(): Promise<string> {
  const admin = postgres?.adminUrl as string;
  const name = `floor_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return admin.replace(/\/[^/]*$/, `/${name}`);
}

type Server = [string, () => Promise<ChildServer>];
const rung = (name: string, kind: string): Server => [
  name,
  () => startChildServer(kind, [dataDir()]),
];
const onPg = (name: string, kind: string): Server => [
  name,
  async () => startChildServer(kind, [dataDir()], { BENCH_DATABASE_URL: await freshDatabase() }),
];
const servers: Server[] = [
  ['bare undici (node:http)', () => startChildServer('bare-fetch')],
  rung('a Fastify 5 + undici', 'floor-a'),
  rung('b + key in a Map', 'floor-b'),
  rung('c + durable SQLite write (better-sqlite3, group commit)', 'floor-c'),
  rung('d c through Kysely', 'floor-d'),
  rung('e + pino line to a file', 'floor-e'),
  rung('f + request record in the commit', 'floor-f'),
  rung('g f + block check, day rollup, kept result (every default)', 'floor-g'),
  rung('service, SQLite', 'service'),
  ...(postgres
    ? [
        onPg('c-pg b + one ledger statement on PostgreSQL (pg)', 'floor-c-pg'),
        onPg('d-pg c-pg through Kysely', 'floor-d-pg'),
        onPg('service, PostgreSQL', 'service'),
      ]
    : []),
];

type Row = LoadResult & { cpuMsPerRequest: number };
const results = new Map<string, Row[]>();
const page = encodeURIComponent(`${fixture.url}/big`);
try {
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const [name, start] of order) {
      const server = await start();
      process.stderr.write(`round ${round + 1}: ${name}\n`);
      try {
        const cpuBefore = cpuSeconds(server.pid);
        const result = await runLoad({
          url: `${server.url}/api/scraper?api_key=${server.apiKey ?? ''}&url=${page}`,
          connections,
          durationMs,
        });
        const cpuMs = (cpuSeconds(server.pid) - cpuBefore) * 1000;
        results.set(name, [
          ...(results.get(name) ?? []),
          { ...result, cpuMsPerRequest: cpuMs / result.sent },
        ]);
      } finally {
        await server.stop();
      }
    }
  }
} finally {
  await fixture.stop();
  await postgres?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

const mid = (numbers: number[]) => {
  const sorted = [...numbers].sort((x, y) => x - y);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[half] as number)
    : ((sorted[half - 1] as number) + (sorted[half] as number)) / 2;
};
const bareRps = mid((results.get(servers[0]?.[0] as string) ?? []).map((r) => r.rps));
console.log(
  `floor-scrape: 100 KB page, concurrency ${connections}, ${durationMs / 1000} s, ${rounds} round(s) (medians), load ${loadAverage()}`,
);
console.log('| server | req/s | x bare | p50 ms | server CPU ms/req | errors |');
console.log('|---|---|---|---|---|---|');
for (const [name, rows] of results) {
  const rps = mid(rows.map((r) => r.rps));
  console.log(
    `| ${name} | ${rps.toFixed(0)} | ${(rps / bareRps).toFixed(2)} | ${mid(rows.map((r) => r.p50Ms)).toFixed(2)} | ` +
      `${mid(rows.map((r) => r.cpuMsPerRequest)).toFixed(2)} | ${rows.reduce((sum, r) => sum + r.errors, 0)} |`,
  );
}
