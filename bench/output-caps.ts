/**
 * How soon do the caps end work that would run on: a page over MARKDOWN_MAX_MS, an aborted
 * conversion, and a scrape whose page is slower than its `timeout`?
 *
 *   node --import tsx bench/output-caps.ts [--repeat 5] [--cap-ms 300]
 *
 * 1. Output pool (one warm worker, maxMs = --cap-ms): an 11 MB page of 200,000 blocks, which
 *    takes seconds to convert, is answered TIMED_OUT; reported: time to the answer and its
 *    overshoot past the cap. Then the same page with the cap lifted, once, for scale.
 * 2. The same page aborted 50 ms in (the client went away): time from the abort to the
 *    rejection with the abort's reason.
 * 3. The real service (in this process) against a fixture page held 30 s: render=false with
 *    timeout=1000 and render=true with timeout=1500 are answered 504; reported: the answer
 *    time and its overshoot past the timeout.
 * The tests assert only which of these ended the work (test/scrape/output/output-pool.test.ts,
 * test/scrape/engines/...); this is where the times are.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createOutputPool } from '../src/scrape/output/output-pool.js';
import { startFixtureSite } from '../test/helpers/fixture-site.js';
import { startService } from '../test/helpers/service.js';

const { values } = parseArgs({
  options: {
    repeat: { type: 'string', default: '5' },
    'cap-ms': { type: 'string', default: '300' },
  },
});
const repeat = Math.max(1, Number(values.repeat) || 5);
const capMs = Math.max(50, Number(values['cap-ms']) || 300);

const HUGE = `<html><body>${'<div><p>para <b>bold</b> and <a href="/x">link</a></p></div>'.repeat(200_000)}</body></html>`;
const SMALL =
  '<html><body><article><p>A small page, to boot the worker.</p></article></body></html>';
const job = (html: string) => ({ html, pageUrl: 'http://127.0.0.1/', markdown: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const fmt = (xs: number[]) =>
  `median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;

/** Runs `work` and returns how long it took to settle and how it settled. */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; outcome: string }> {
  const started = performance.now();
  const outcome = await work().then(
    () => 'resolved',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  return { ms: performance.now() - started, outcome };
}

console.log(`page: ${(HUGE.length / 1024 / 1024).toFixed(1)} MB of 200,000 blocks`);

// 1. The cap.
const pool = createOutputPool({ size: 1, maxMs: capMs });
try {
  await pool.run(job(SMALL)); // boot the worker: boot time is not charged to a page
  const answered: number[] = [];
  for (let run = 1; run <= repeat; run++) {
    const { ms, outcome } = await timed(() => pool.run(job(HUGE)));
    await pool.run(job(SMALL)); // the replacement worker boots outside the next timing
    answered.push(ms);
    console.log(`cap run ${run}: ${outcome} after ${ms.toFixed(0)} ms (cap ${capMs} ms)`);
  }
  console.log(
    `MARKDOWN_MAX_MS=${capMs}: answered ${fmt(answered)}; overshoot ${fmt(answered.map((ms) => ms - capMs))}`,
  );

  // 2. The abort.
  const afterAbort: number[] = [];
  for (let run = 1; run <= repeat; run++) {
    const controller = new AbortController();
    const pending = pool.run(job(HUGE), { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const aborted = performance.now();
    controller.abort(new Error('client gone'));
    const error = await pending;
    afterAbort.push(performance.now() - aborted);
    if (error !== controller.signal.reason) throw new Error(`abort run ${run}: ${String(error)}`);
    await pool.run(job(SMALL));
  }
  console.log(`abort 50 ms in -> rejected with its reason: ${fmt(afterAbort)} after the abort`);
} finally {
  await pool.close();
}

const uncapped = createOutputPool({ size: 1, maxMs: 600_000 });
try {
  await uncapped.run(job(SMALL));
  const { ms, outcome } = await timed(() => uncapped.run(job(HUGE)));
  console.log(`uncapped, for scale: ${outcome} after ${ms.toFixed(0)} ms`);
} finally {
  await uncapped.close();
}

// 3. A scrape's budget against a page slower than it.
const site = await startFixtureSite();
const service = await startService({ credits: 100_000 });
async function scrape(
  path: string,
  params: Record<string, string>,
): Promise<{ status: number; ms: number }> {
  const query = new URLSearchParams({ url: site.url(path), ...params });
  const started = performance.now();
  const response = await fetch(`${service.baseUrl}/api/scraper?${query}`, {
    headers: { 'X-API-Key': service.apiKey },
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}
try {
  for (const [label, params, budget] of [
    ['render=false', { timeout: '1000' }, 1000],
    ['render=true', { render: 'true', timeout: '1500' }, 1500],
  ] as const) {
    await scrape('/page', params); // warm-up: the browser launched, the route compiled
    const times: number[] = [];
    for (let run = 1; run <= repeat; run++) {
      const { status, ms } = await scrape('/slow?ms=30000', params);
      if (status !== 504) throw new Error(`${label} run ${run}: status ${status}`);
      times.push(ms);
    }
    console.log(
      `${label} timeout=${budget} on a 30 s page: 504 after ${fmt(times)}; overshoot ${fmt(times.map((ms) => ms - budget))}`,
    );
  }
} finally {
  await service.close();
  await site.close();
}
