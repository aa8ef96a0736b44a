import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { DEFAULTS } from '../../../src/config.js';
import { isAppError } from '../../../src/errors.js';
import { htmlToMarkdown } from '../../../src/markdown/index.js';
import { loadFilterEngines } from '../../../src/scrape/blockers/filter-engines.js';
import { stripBlocked } from '../../../src/scrape/blockers/static-blocker.js';
import { createOutputStage } from '../../../src/scrape/output/index.js';
import {
  createOutputPool,
  OUTPUT_WORKER_YOUNG_GENERATION_MB,
} from '../../../src/scrape/output/output-pool.js';
import type { PageSnapshot, ScrapeOptions, ScrapeRun } from '../../../src/scrape/types.js';
import { until } from '../../helpers/until.js';
import { builtFilterDir } from '../blockers/built-filters.js';

const SMALL = `<html><head><title>Story</title></head><body><article>${'<p>A paragraph of the story, with commas, clauses, and enough words to read like prose.</p>'.repeat(8)}</article></body></html>`;
/** Takes seconds to convert (a 6 MB page of 100,000 short blocks). */
const HUGE = `<html><body>${'<div><p>para <b>bold</b> and <a href="/x">link</a></p></div>'.repeat(200_000)}</body></html>`;

function planFor(timeoutMs: number, signal = new AbortController().signal): ScrapeRun {
  return {
    options: { timeoutMs } as ScrapeOptions,
    engine: 'fetch',
    output: 'markdown',
    block: null,
    proxies: [],
    isolationKey: 'test-account',
    deadline: Date.now() + timeoutMs,
    signal,
  };
}
const snapshot = (html: string): PageSnapshot => ({
  finalUrl: 'http://127.0.0.1/page',
  status: 200,
  html,
});

describe('output pool (Markdown)', () => {
  // A cap a small page passes on a busy machine (a cold worker's first page); HUGE takes
  // tens of seconds uncapped.
  const pool = createOutputPool({ size: 2, maxMs: 2000 });
  after(() => pool.close());

  it('converts as the in-line function does', async () => {
    const md = await pool.run({ html: SMALL, pageUrl: 'http://127.0.0.1/page', markdown: true });
    assert.equal(md, htmlToMarkdown(SMALL, 'http://127.0.0.1/page'));
    assert.match(md, /A paragraph of the story/);
  });

  it("gives each worker a young generation twice Node's default, so a page converts between scavenges", async () => {
    // Node's default is 48 MB (16 MB semi-spaces): a 100 KB page's live tree was copied and
    // promoted mid-conversion, and full collections followed every few pages.
    await pool.run({ html: SMALL, pageUrl: 'http://127.0.0.1/page', markdown: true });
    const limits = pool.workerLimits();
    assert.ok(limits.length >= 1);
    for (const limit of limits) {
      assert.equal(limit.maxYoungGenerationSizeMb, OUTPUT_WORKER_YOUNG_GENERATION_MB);
      assert.ok((limit.maxYoungGenerationSizeMb ?? 0) >= 96);
    }
  });

  it('stops a page over the cap with TIMED_OUT, and the next page still converts', async () => {
    // Uncapped, HUGE takes seconds and then resolves: a rejection with the cap's text means
    // the cap ended it (bench/output-caps.ts measures how soon).
    await assert.rejects(
      pool.run({ html: HUGE, pageUrl: 'http://127.0.0.1/', markdown: true }),
      (error) => {
        assert.ok(isAppError(error));
        assert.equal(error.status, 504);
        assert.equal(error.message, 'Timed out after 2000 ms');
        return true;
      },
    );
    assert.match(
      await pool.run({ html: SMALL, pageUrl: 'http://127.0.0.1/', markdown: true }),
      /A paragraph/,
    );
  });

  it("names the scrape's budget when the deadline is what ran out", async () => {
    const error = await pool
      .run(
        { html: HUGE, pageUrl: 'http://127.0.0.1/', markdown: true },
        { deadline: Date.now() + 100, budgetMs: 30_000 },
      )
      .catch((e: unknown) => e);
    assert.ok(isAppError(error));
    assert.equal(error.message, 'Timed out after 30000 ms');
  });

  it('stops at once when the signal aborts, with its reason', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('client gone')), 50);
    // A conversion that ran to its end would resolve; the cap would say TIMED_OUT.
    await assert.rejects(
      pool.run(
        { html: HUGE, pageUrl: 'http://127.0.0.1/', markdown: true },
        { signal: controller.signal },
      ),
      (error) => error === controller.signal.reason,
    );
  });

  it('fails pending conversions with NOT_READY on close', async () => {
    const own = createOutputPool({ size: 1, maxMs: DEFAULTS.markdownMaxMs });
    const pending = own
      .run({ html: HUGE, pageUrl: 'http://127.0.0.1/', markdown: true })
      .catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    await own.close();
    const error = await pending;
    assert.ok(isAppError(error) && error.code === 'NOT_READY', String(error));
  });
});

describe('output pool warm-up (`pagegrab serve` boots its workers with the service)', () => {
  it('warmUp boots every worker before any page and resolves once all are ready', async () => {
    const warm = createOutputPool({ size: 2, maxMs: 2000 });
    try {
      assert.equal(await warm.warmUp(), 2);
      assert.equal(await warm.warmUp(), 2, 'a second warm-up starts none beyond the size');
      const md = await warm.run({ html: SMALL, pageUrl: 'http://127.0.0.1/page', markdown: true });
      assert.match(md, /A paragraph of the story/);
    } finally {
      await warm.close();
    }
  });

  it('a close during the warm-up ends it rather than leaving it waiting', async () => {
    const warm = createOutputPool({ size: 2, maxMs: 2000 });
    const warming = warm.warmUp();
    await warm.close();
    assert.ok((await warming) <= 2);
  });
});

describe('output stage on a loopback server', () => {
  it('a slow page times out while a concurrent small page is answered first', async () => {
    // The small page must be converted inside the huge one's cap even on a busy machine.
    const stage = createOutputStage({ size: 2, maxMs: 5_000 });
    let hugeAsked = false;
    const server = createServer((req, res) => {
      if (req.url === '/huge') hugeAsked = true;
      const html = req.url === '/huge' ? HUGE : SMALL;
      stage.produce(planFor(30_000), snapshot(html)).then(
        (result) => res.writeHead(200, { 'content-type': result.contentType }).end(result.body),
        (error: unknown) => {
          const status = isAppError(error) ? error.status : 500;
          res.writeHead(status).end(JSON.stringify({ error: (error as Error).message }));
        },
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // boot both workers first (under tsx each one compiles the converter)
    await Promise.all([fetch(`${base}/small`), fetch(`${base}/small`)]);
    try {
      const finished: string[] = [];
      const huge = fetch(`${base}/huge`).then(async (r) => {
        finished.push('huge');
        return { status: r.status, body: await r.text() };
      });
      await until(() => hugeAsked); // the huge page is converting now
      const small = await fetch(`${base}/small`);
      finished.push('small');
      assert.equal(small.status, 200);
      assert.equal(small.headers.get('content-type'), 'text/markdown; charset=utf-8');
      assert.match(await small.text(), /A paragraph of the story/);
      const slow = await huge;
      assert.equal(slow.status, 504);
      assert.deepEqual(JSON.parse(slow.body), { error: 'Timed out after 5000 ms' });
      // Converted on the event loop, the huge page (seconds) would hold the small one back
      // (bench/static-blocker-stall.ts measures the loop's stall).
      assert.deepEqual(finished, ['small', 'huge']);
    } finally {
      server.close();
      await stage.close();
    }
  });
});

describe('output pool (static blocker)', () => {
  const PAGE = 'http://127.0.0.1:1234/article';
  const ADS = { ads: true, cookieBanners: false, chatWidgets: false };
  const FIXTURE = readFileSync(
    new URL('../../helpers/fixtures/blocked-page.html', import.meta.url),
    'utf8',
  );
  const dir = builtFilterDir();
  // The cap must pass a page on a busy machine (a cold worker's first strip) and stop the big
  // page below, which takes several seconds uncapped (7 s on the CI machine under load).
  const pool = createOutputPool({ size: 1, maxMs: 2000, filtersDir: dir });
  after(() => pool.close());

  it('strips as stripBlocked does, then converts in the same trip', async () => {
    const engines = await loadFilterEngines(dir);
    const stripped = stripBlocked(FIXTURE, PAGE, ADS, engines);
    assert.notEqual(stripped, FIXTURE);
    const html = await pool.run({ html: FIXTURE, pageUrl: PAGE, block: ADS, markdown: false });
    assert.equal(html, stripped);
    const md = await pool.run({ html: FIXTURE, pageUrl: PAGE, block: ADS, markdown: true });
    assert.equal(md, htmlToMarkdown(stripped, PAGE));
  });

  it('caps a strip with TIMED_OUT like a conversion (engine load at boot is not charged)', async () => {
    const big = `<html><body>${'<div class="post"><a href="/x">x</a><div class="banner-ad">ad</div></div>'.repeat(300_000)}</body></html>`;
    const error = await pool
      .run({ html: big, pageUrl: PAGE, block: ADS, markdown: false })
      .catch((e: unknown) => e);
    assert.ok(isAppError(error) && error.code === 'TIMED_OUT', String(error));
    // the replacement worker boots (engines included) before it takes the next page
    const html = await pool.run({ html: FIXTURE, pageUrl: PAGE, block: ADS, markdown: false });
    assert.ok(!html.includes('class="banner-ad"'));
  });

  it('a pool without a filters dir refuses a strip with INTERNAL', async () => {
    const own = createOutputPool({ size: 1, maxMs: DEFAULTS.markdownMaxMs });
    try {
      const error = await own
        .run({ html: FIXTURE, pageUrl: PAGE, block: ADS, markdown: false })
        .catch((e: unknown) => e);
      assert.ok(isAppError(error) && error.code === 'INTERNAL', String(error));
    } finally {
      await own.close();
    }
  });
});

describe('the html output', () => {
  const stage = createOutputStage({ size: 1, maxMs: 5_000 });
  after(() => stage.close());
  const htmlPlan = (): ScrapeRun => ({ ...planFor(5_000), output: 'html' });

  it("answers a fetched UTF-8 page's own bytes, not its text encoded again", async () => {
    const htmlBytes = Buffer.from(SMALL, 'utf8');
    const result = await stage.produce(htmlPlan(), { ...snapshot(SMALL), htmlBytes });
    assert.equal(result.body, htmlBytes, 'the same buffer');
    assert.equal(result.contentType, 'text/html; charset=utf-8');
  });

  it('encodes the text of a page without them (another charset, a render)', async () => {
    const result = await stage.produce(htmlPlan(), snapshot('<p>naïve café €</p>'));
    assert.equal(result.body?.toString('utf8'), '<p>naïve café €</p>');
  });
});
