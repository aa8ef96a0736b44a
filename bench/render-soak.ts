/**
 * Soak: 1,000 sequential renders of a local page through the browser engine. Passes when no
 * context or tab is left open beyond the warm pool and the browser's memory (VmRSS summed
 * over the Chromium process tree, from /proc) ends within ±15% of its level after the first
 * 100 renders.
 *   node --import tsx bench/render-soak.ts [renders=1000]
 */
import { treeRssBytes } from '../src/scrape/engines/browser/chromium-process.js';
import { createBrowserEngine } from '../src/scrape/engines/browser/index.js';
import { benchPlan } from './render-engine-compare.js';
import { serveBenchPage } from './scrape-render-bare.js';

const total = Number(process.argv[2] ?? 1000);
const served = await serveBenchPage();
const engine = createBrowserEngine({ allowPrivateNetworks: true, maxConcurrentPages: 2 });
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
let baseline = 0;
let failures = 0;
const t0 = performance.now();
for (let i = 1; i <= total; i += 1) {
  try {
    await engine.render(benchPlan(served.url));
  } catch (error) {
    failures += 1;
    console.error(`render ${i} failed:`, (error as Error).message);
  }
  if (i % 100 === 0) {
    await new Promise((resolve) => setTimeout(resolve, 200)); // let the last reset finish
    const status = engine.status();
    const rss = status.pids.reduce((sum, pid) => sum + treeRssBytes(pid), 0);
    if (i === 100) baseline = rss;
    const drift = baseline ? ((rss / baseline - 1) * 100).toFixed(1) : '0.0';
    console.log(
      `${i} renders: rss=${mib(rss)} MiB (drift ${drift}%), contexts=${status.openContexts}, ` +
        `pages=${status.openPages}, inUse=${status.pagesInUse}, launches=${status.launches}, ` +
        `contextsCreated=${status.contextsCreated}, ${(i / ((performance.now() - t0) / 1000)).toFixed(1)} req/s`,
    );
  }
}
const status = engine.status();
const finalRss = status.pids.reduce((sum, pid) => sum + treeRssBytes(pid), 0);
const drift = finalRss / baseline - 1;
const leaked = status.openContexts > status.idlePages || status.openPages > status.idlePages;
console.log(
  `final: rss ${mib(finalRss)} MiB vs ${mib(baseline)} MiB after 100 (${(drift * 100).toFixed(1)}%), ` +
    `open contexts ${status.openContexts}, open pages ${status.openPages}, idle ${status.idlePages}, ` +
    `failures ${failures}`,
);
await engine.close();
await served.close();
const ok = Math.abs(drift) <= 0.15 && !leaked && failures === 0;
console.log(ok ? 'SOAK PASS' : 'SOAK FAIL');
process.exitCode = ok ? 0 : 1;
