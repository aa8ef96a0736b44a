/**
 * The cost of the service around a plain fetch: /api/scraper?url=<local 100 KB page> on the
 * real service against a bare node:http server that fetches the same page with undici and
 * returns it, at concurrency 1, 8 and 32, in one run. The service runs twice: DATA_DIR on
 * disk (the default: two SQLite transactions per scrape, synchronous=FULL, so two fsyncs)
 * and DATA_DIR on tmpfs (/dev/shm: fsync costs nothing), which isolates the fsync share.
 * Every server, the fixture site included, is its own child process.
 *   node --import tsx bench/scrape-fetch.ts [--seconds 5]
 * With --peer-dist DIR (another build's dist/, e.g. this commit with one change undone) both
 * builds run on disk and on tmpfs, in --rounds N rounds that alternate which goes first; each
 * figure is the median over the rounds (a shared machine's load moves within minutes):
 *   node --import tsx bench/scrape-fetch.ts --seconds 5 --rounds 3 --peer-dist /tmp/x/dist \
 *     --peer-label 'no request records'
 * --peer-env NAME=VALUE[,NAME=VALUE] runs this build again as the peer with those settings
 * added (e.g. BENCH_LOG_LEVEL=warn: the cost of the request log lines), like --peer-dist.
 * --levels 8 (or 1,8,32, the default) picks the concurrency levels; --profile DIR profiles this
 * build's services' main thread over each measured window (not start-up nor warm-up) into DIR
 * and prints where their time went;
 * --tmpfs false leaves out the tmpfs runs; --postgres adds the service on PostgreSQL (the
 * tests' server, test/helpers/postgres-server.mjs: on this machine, fsync off), a fresh
 * database per service. --markdown: markdown=true against a bare proxy that converts with
 * turndown in a worker thread (bare-fetch-markdown).
 * --warmup S: seconds of unmeasured load before each level's window (default 1; 6 with
 * --markdown: the converter's JIT and the workers' heaps take seconds to settle under load,
 * and a 1 s warm-up measured that start-up, 0.49x, rather than the steady state).
 * Targets: service >= 0.85x bare throughput, p50 added <= 2 ms.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startPostgres } from '../test/helpers/postgres-server.mjs';
import { type ChildServer, startChildServer } from './lib/child-server.js';
import { printProfileSummary } from './lib/cpu-profile-summary.js';
import { cpuSeconds, type LoadResult, loadAverage, runLoad } from './lib/load.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    'peer-dist': { type: 'string' },
    'peer-env': { type: 'string' },
    'peer-label': { type: 'string', default: 'peer build' },
    rounds: { type: 'string', default: '1' },
    levels: { type: 'string', default: '1,8,32' },
    profile: { type: 'string' },
    tmpfs: { type: 'string', default: 'true' },
    postgres: { type: 'boolean', default: false },
    markdown: { type: 'boolean', default: false },
    warmup: { type: 'string' },
  },
});
const warmupMs = Number(values.warmup ?? (values.markdown ? 6 : 1)) * 1000;
const durationMs = Number(values.seconds) * 1000;
const LEVELS = (values.levels as string).split(',').map(Number);
const profileDir = values.profile;
if (profileDir) mkdirSync(profileDir, { recursive: true });
const peerEnv: Record<string, string> = Object.fromEntries(
  (values['peer-env'] ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);
const peerDist = values['peer-dist'] ?? (values['peer-env'] ? 'same' : undefined);
/** The peer's environment: another build's dist/, or this build with --peer-env's settings. */
const peerEnvOf = (): Record<string, string> =>
  values['peer-dist'] ? { BENCH_DIST: values['peer-dist'], ...peerEnv } : peerEnv;
const rounds = Number(values.rounds);

const fixture = await startChildServer('fixture');
const postgres = values.postgres ? await startPostgres() : null;
/** A fresh database on the bench's PostgreSQL, as a URL. */
async function freshDatabase(): Promise<string> {
  const admin = postgres?.adminUrl as string;
  const name = `bench_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return admin.replace(/\/[^/]*$/, `/${name}`);
}
const page = encodeURIComponent(`${fixture.url}/big`);
const dirs: string[] = [];
const dataDir = (base: string) => {
  const dir = mkdtempSync(join(base, 'pagegrab-bench-'));
  dirs.push(dir);
  return dir;
};
/** A server's name, its start, and whether --profile profiles it (this build's services). */
type Server = [string, () => Promise<ChildServer>, boolean?];
/** --profile: this build's services profile their load windows (bench/lib/servers.ts). */
const profiledEnv = (peer: boolean): Record<string, string> =>
  profileDir && !peer ? { BENCH_PROFILE_DIR: profileDir } : {};
/** This build, and with --peer-dist the peer's build, on PostgreSQL. */
const onPostgres = (peer: boolean): Server => {
  const env = { ...(peer ? peerEnvOf() : {}), ...profiledEnv(peer) };
  const name = `service${peerDist ? (peer ? ` (${values['peer-label']})` : ' (this build)') : ''}, PostgreSQL`;
  return [
    name,
    async () =>
      startChildServer('service', [dataDir(tmpdir())], {
        ...env,
        BENCH_DATABASE_URL: await freshDatabase(),
      }),
    Boolean(profileDir) && !peer,
  ];
};
/** This build, and with --peer-dist the peer's build, on disk and on tmpfs, each its own folder. */
const service = (where: 'disk' | 'tmpfs', peer: boolean): Server => {
  const env = peer ? peerEnvOf() : {};
  const name = `service${peerDist ? (peer ? ` (${values['peer-label']})` : ' (this build)') : ''}, DATA_DIR on ${where}`;
  return [
    name,
    // A fresh folder per start: a second round's service would find the first's account.
    () =>
      startChildServer('service', [dataDir(where === 'disk' ? tmpdir() : '/dev/shm')], {
        ...env,
        ...profiledEnv(peer),
      }),
    Boolean(profileDir) && !peer,
  ];
};
const pairs: Server[][] = [
  [['bare undici', () => startChildServer(values.markdown ? 'bare-fetch-markdown' : 'bare-fetch')]],
  peerDist ? [service('disk', false), service('disk', true)] : [service('disk', false)],
  ...(postgres ? [peerDist ? [onPostgres(false), onPostgres(true)] : [onPostgres(false)]] : []),
  ...(values.tmpfs === 'false'
    ? []
    : [peerDist ? [service('tmpfs', false), service('tmpfs', true)] : [service('tmpfs', false)]]),
];
type Row = LoadResult & { cpuMsPerRequest: number };
/** Every round's rows per server; a peer and this build alternate which goes first. */
const results = new Map<string, Row[][]>();
try {
  for (let round = 0; round < rounds; round++) {
    const order = pairs.flatMap((pair) => (round % 2 === 0 ? pair : [...pair].reverse()));
    for (const [name, start, profiled] of order) {
      const server = await start();
      try {
        const rows: Row[] = [];
        for (const connections of LEVELS) {
          const path = server.apiKey
            ? `/api/scraper?api_key=${server.apiKey}&url=${page}${values.markdown ? '&markdown=true' : ''}`
            : `/?url=${page}`;
          const cpuBefore = cpuSeconds(server.pid);
          const load = runLoad({ url: `${server.url}${path}`, connections, durationMs, warmupMs });
          // The profile covers the measured window: it starts after the load's warm-up.
          const started = profiled
            ? setTimeout(() => process.kill(server.pid, 'SIGUSR2'), warmupMs)
            : null;
          const result = await load;
          if (started) {
            process.kill(server.pid, 'SIGUSR2');
            await new Promise((done) => setTimeout(done, 1500));
          }
          // Warm-up requests count in the CPU too: divide by every request sent.
          const cpuMs = (cpuSeconds(server.pid) - cpuBefore) * 1000;
          rows.push({ ...result, cpuMsPerRequest: cpuMs / result.sent });
        }
        results.set(name, [...(results.get(name) ?? []), rows]);
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

/** Per level, the median over the rounds of each figure. */
function median(rowsByRound: Row[][]): Row[] {
  const mid = (values: number[]) => {
    const sorted = [...values].sort((x, y) => x - y);
    const half = Math.floor(sorted.length / 2);
    return sorted.length % 2
      ? (sorted[half] as number)
      : ((sorted[half - 1] as number) + (sorted[half] as number)) / 2;
  };
  return LEVELS.map((_, i) => {
    const at = rowsByRound.map((rows) => rows[i] as Row);
    return {
      ...(at[0] as Row),
      rps: mid(at.map((r) => r.rps)),
      p50Ms: mid(at.map((r) => r.p50Ms)),
      p99Ms: mid(at.map((r) => r.p99Ms)),
      cpuMsPerRequest: mid(at.map((r) => r.cpuMsPerRequest)),
      errors: at.reduce((sum, r) => sum + r.errors, 0),
    };
  });
}

const bare = median(results.get('bare undici') as Row[][]);
console.log(
  `scrape-fetch${values.markdown ? ' (markdown=true; bare: turndown in a worker)' : ''}: 100 KB page, ${durationMs / 1000} s per level, ${rounds} round(s) (medians), load ${loadAverage()}`,
);
console.log(
  '| server | conc | req/s | x bare | p50 ms | p50 added | p99 ms | server CPU ms/req | errors |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const [name, byRound] of results) {
  median(byRound).forEach((r, i) => {
    const b = bare[i] as Row;
    console.log(
      `| ${name} | ${LEVELS[i]} | ${r.rps.toFixed(0)} | ${(r.rps / b.rps).toFixed(2)} | ` +
        `${r.p50Ms.toFixed(2)} | ${(r.p50Ms - b.p50Ms).toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.cpuMsPerRequest.toFixed(2)} | ${r.errors} |`,
    );
  });
}
if (profileDir) {
  const files = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
  for (const name of files) printProfileSummary(join(profileDir, name), 15);
}
