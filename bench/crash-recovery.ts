/**
 * How long after Chromium is killed mid-render does the render route serve again?
 *
 *   node --import tsx bench/crash-recovery.ts [--repeat 5]
 *
 * Starts the real service in this process (temp DATA_DIR, warm browser) and a loopback fixture
 * site whose /hang page never finishes loading (its image is held 60 s). Each run: render=true
 * of /hang; once the fixture sees the image requested, SIGKILL the browser pid /readyz reports;
 * the hung request fails (5xx); the next render=true of /page is sent at once and must answer
 * 200 on a new pid. Reports, per run and as median and max: kill → failed answer, and kill →
 * next render answered (the relaunch included). The test suite asserts only that recovery
 * happens (test/api/native/scraper-render-proxy-crash.test.ts); this is where its time is.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startFixtureSite } from '../test/helpers/fixture-site.js';
import { startService } from '../test/helpers/service.js';
import { until } from '../test/helpers/until.js';

const { values } = parseArgs({ options: { repeat: { type: 'string', default: '5' } } });
const repeat = Math.max(1, Number(values.repeat) || 5);

const site = await startFixtureSite();
site.html('/hang', '<p>hanging</p><img src="/slow?ms=60000">');
const service = await startService({ credits: 100_000 });

async function render(path: string): Promise<number> {
  const query = new URLSearchParams({ url: site.url(path), render: 'true', timeout: '30000' });
  const response = await fetch(`${service.baseUrl}/api/scraper?${query}`, {
    headers: { 'X-API-Key': service.apiKey },
  });
  await response.arrayBuffer();
  return response.status;
}

async function browserPid(): Promise<number | undefined> {
  const body = (await (await fetch(`${service.baseUrl}/readyz`)).json()) as {
    browser: { pids: number[] };
  };
  return body.browser.pids[0];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

try {
  if ((await render('/page')) !== 200) throw new Error('warm-up render failed');
  const failedAfter: number[] = [];
  const servedAfter: number[] = [];
  for (let run = 1; run <= repeat; run++) {
    const pid = await browserPid();
    if (!pid) throw new Error('no browser pid in /readyz');
    const images = site.hits('/slow');
    const hung = render('/hang');
    await until(() => site.hits('/slow') > images, 30_000);
    const killed = performance.now();
    process.kill(pid, 'SIGKILL');
    const failed = await hung;
    const failedAt = performance.now() - killed;
    const next = await render('/page');
    const servedAt = performance.now() - killed;
    const relaunched = await browserPid();
    if (failed < 500 || next !== 200 || relaunched === pid) {
      throw new Error(`run ${run}: hung ${failed}, next ${next}, pid ${pid} -> ${relaunched}`);
    }
    failedAfter.push(failedAt);
    servedAfter.push(servedAt);
    console.log(
      `run ${run}: killed pid ${pid}; failed request answered ${failed} after ${failedAt.toFixed(0)} ms; ` +
        `next render 200 on pid ${relaunched} after ${servedAt.toFixed(0)} ms`,
    );
  }
  const fmt = (xs: number[]) =>
    `median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
  console.log(`kill -> failed answer: ${fmt(failedAfter)}`);
  console.log(`kill -> next render served: ${fmt(servedAfter)}`);
} finally {
  await service.close();
  await site.close();
}
