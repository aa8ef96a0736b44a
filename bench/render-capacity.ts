/**
 * The numbers behind the README's capacity model: renders per CPU-second (Node + the whole
 * Chromium tree, from /proc) at a few page-slot counts, and memory per warm context (PSS and
 * RSS of the Chromium tree with 1 context vs. `pages` contexts held open).
 * Then plain (render=false) scrapes per CPU-second through a whole `serve` process (HTTP,
 * auth, credit reserve and settle, account slots) on the embedded database, or on PostgreSQL
 * with --database-url.
 *   node --import tsx bench/render-capacity.ts [--seconds 20] [--pages 1,2,4] [--database-url …]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { processTree, treeRssBytes } from '../src/scrape/engines/browser/chromium-process.js';
import { createBrowserEngine } from '../src/scrape/engines/browser/index.js';
import { startFixtureSite } from '../test/helpers/fixture-site.js';
import { createAccountCli, startNode } from '../test/scale/service-node.js';
import { benchPlan } from './render-engine-compare.js';
import { serveBenchPage, treeCpuSeconds } from './scrape-render-bare.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    pages: { type: 'string', default: '1,2,4' },
    'database-url': { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const slotCounts = (values.pages ?? '1,2,4').split(',').map(Number);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

function treePss(root: number): number {
  return processTree(root).reduce((sum, pid) => {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      return sum + Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
    } catch {
      return sum;
    }
  }, 0);
}

const served = await serveBenchPage();
const selfCpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

for (const pages of slotCounts) {
  const engine = createBrowserEngine({ allowPrivateNetworks: true, maxConcurrentPages: pages });
  // Each lane is its own account: contexts are not shared across isolation keys.
  const render = (lane: number) =>
    engine.render({ ...benchPlan(served.url), isolationKey: `lane-${lane}` });
  for (let i = 0; i < 10; i += 1)
    await Promise.all(Array.from({ length: pages }, (_, l) => render(l)));
  await new Promise((r) => setTimeout(r, 500));
  const pids = engine.status().pids;
  const chromiumCpu = () => pids.reduce((sum, pid) => sum + treeCpuSeconds(pid), 0);
  const cpu0 = selfCpu() + chromiumCpu();
  const t0 = performance.now();
  let done = 0;
  const until = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: pages }, async (_, lane) => {
      while (performance.now() < until) {
        await render(lane);
        done += 1;
      }
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const cpu = selfCpu() + chromiumCpu() - cpu0;
  await new Promise((r) => setTimeout(r, 500));
  const status = engine.status();
  const pss = pids.reduce((sum, pid) => sum + treePss(pid), 0);
  const rss = pids.reduce((sum, pid) => sum + treeRssBytes(pid), 0);
  console.log(
    `pages ${pages}: ${done} renders in ${wall.toFixed(1)} s = ${(done / wall).toFixed(1)}/s, ` +
      `CPU ${cpu.toFixed(1)} s = ${(done / cpu).toFixed(1)} renders per CPU-second; ` +
      `chromium PSS ${mib(pss)} MiB, RSS ${mib(rss)} MiB with ${status.openContexts} contexts open; ` +
      `node RSS ${mib(process.memoryUsage().rss)} MiB`,
  );
  await engine.close();
}
await served.close();

/** Plain scrapes through a real node, 16 at a time; CPU of the node process (and of PostgreSQL is not counted). */
async function plainThroughput(databaseUrl: string | null): Promise<void> {
  const site = await startFixtureSite();
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-capacity-'));
  const account = await createAccountCli(databaseUrl, 1_000_000_000, 64, dataDir);
  const node = await startNode(databaseUrl, {}, dataDir);
  const url = `${node.url}/api/scraper?${new URLSearchParams({ api_key: account.apiKey, url: site.url('/page') })}`;
  const scrape = async () => {
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`status ${response.status}`);
  };
  for (let i = 0; i < 200; i += 1) await scrape();
  const cpu0 = treeCpuSeconds(node.pid);
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (performance.now() < until) {
        await scrape();
        done += 1;
      }
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const cpu = treeCpuSeconds(node.pid) - cpu0;
  console.log(
    `plain scrapes (${databaseUrl ? 'PostgreSQL' : 'embedded'}): ${(done / wall).toFixed(0)}/s, ` +
      `${(done / cpu).toFixed(0)} per CPU-second of the node process, node RSS ${mib(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${node.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024)} MiB`,
  );
  await node.stop();
  await site.close();
  rmSync(dataDir, { recursive: true, force: true });
}

await plainThroughput(values['database-url'] ?? null);
