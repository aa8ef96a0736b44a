/**
 * Where a server's CPU goes by thread under the plain scrape's load (issue 26): the 100 KB
 * page at concurrency 8, each thread's CPU per request over the window (/proc/<pid>/task),
 * beside the fixture's and the load generator's and the machine's busy cores. The main
 * thread is the one that answers; the others are V8's platform threads (the collector's
 * marking and scavenging helpers) and libuv's pool (fdatasync, file writes).
 *   node --import tsx bench/scrape-threads.ts [--server service|bare-fetch] [--seconds 5]
 *     [--env NAME=VALUE[,NAME=VALUE]] [--pin]
 * --pin puts the server on CPU 0 and the fixture and load generator on CPU 1 (taskset), so the
 * server's time is its own and not shared with the load; --env adds settings to the server's
 * environment (e.g. HEAP_GROWING_PERCENT=0). Run `npm run build` first for the service.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startChildServer } from './lib/child-server.js';
import { cpuSeconds, runLoad } from './lib/load.js';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'service' },
    seconds: { type: 'string', default: '5' },
    env: { type: 'string', default: '' },
    pin: { type: 'boolean', default: false },
  },
});
const env = Object.fromEntries(
  values.env
    .split(',')
    .filter(Boolean)
    .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);

/** Each thread's CPU seconds so far, by thread id. */
function threadSeconds(pid: number): Map<string, number> {
  const seconds = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      seconds.set(tid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return seconds;
}

/** The machine's busy and total jiffies (/proc/stat's first line; idle and iowait are idle). */
function machine(): { busy: number; all: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] as string)
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const all = fields.reduce((sum, n) => sum + n, 0);
  return { busy: all - (fields[3] ?? 0) - (fields[4] ?? 0), all };
}

const fixture = await startChildServer('fixture');
const server = await startChildServer(values.server, [], env);
if (values.pin) {
  for (const [cpu, pid] of [
    ['0', server.pid],
    ['1', fixture.pid],
    ['1', process.pid],
  ] as const) {
    execFileSync('taskset', ['-a', '-p', '-c', cpu, String(pid)], { stdio: 'ignore' });
  }
}
const page = encodeURIComponent(`${fixture.url}/big`);
const url = server.apiKey
  ? `${server.url}/api/scraper?api_key=${server.apiKey}&url=${page}`
  : `${server.url}/?url=${page}`;
try {
  await runLoad({ url, connections: 8, durationMs: 2000, warmupMs: 500 });
  const before = threadSeconds(server.pid);
  const [machineBefore, fixtureBefore, selfBefore] = [
    machine(),
    cpuSeconds(fixture.pid),
    process.cpuUsage(),
  ];
  const result = await runLoad({
    url,
    connections: 8,
    durationMs: Number(values.seconds) * 1000,
    warmupMs: 0,
  });
  const after = threadSeconds(server.pid);
  const machineAfter = machine();
  const self = process.cpuUsage(selfBefore);
  const perRequest = (seconds: number) => ((seconds * 1000) / result.sent).toFixed(3);
  const cores =
    (2 * (machineAfter.busy - machineBefore.busy)) / (machineAfter.all - machineBefore.all);
  console.log(
    `${values.server}${values.env ? ` (${values.env})` : ''}${values.pin ? ', pinned' : ''}: ` +
      `${result.rps.toFixed(0)} req/s, ${result.errors} errors; machine busy ${cores.toFixed(2)} of 2 cores; ` +
      `fixture ${perRequest(cpuSeconds(fixture.pid) - fixtureBefore)} ms/req, load generator ` +
      `${perRequest((self.user + self.system) / 1e6)} ms/req`,
  );
  const main = String(server.pid);
  let total = 0;
  const rows = [...after]
    .map(([tid, seconds]) => [tid, seconds - (before.get(tid) ?? 0)] as const)
    .filter(([, seconds]) => seconds > 0)
    .sort((x, y) => y[1] - x[1]);
  for (const [tid, seconds] of rows) {
    total += seconds;
    console.log(`  thread ${tid}${tid === main ? ' (main)' : ''}: ${perRequest(seconds)} ms/req`);
  }
  console.log(`  all threads: ${perRequest(total)} ms/req`);
} finally {
  await server.stop();
  await fixture.stop();
}
