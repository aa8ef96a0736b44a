/**
 * The Firecrawl door's engine choice, through POST /v2/scrape on the real service and real
 * Chromium, on both stores: a static or server-rendered page stays a fetch (fetch price,
 * `metadata.engine` fetch); each kind of application shell, and each loading pattern of
 * test/helpers/loading-patterns.ts that needs scripts, is rendered (render price, engine
 * browser) and answered whole; the reservation starts at the fetch's price and grows only when the engine does,
 * so 5 credits fetch a static page, and an account that cannot pay the render gets a 402
 * with the figures, its balance untouched; escalations at once never overdraw.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULTS } from '../../../src/config.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { addLoadingPatterns, LOADING_PATTERNS } from '../../helpers/loading-patterns.js';
import { pgSkipReason } from '../../helpers/postgres.js';
import { startService, type TestService } from '../../helpers/service.js';

const FETCH_PRICE = DEFAULTS.pricing.baseFetch;
const RENDER_PRICE = DEFAULTS.pricing.baseRender;

const doc = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>Page</title>${head}</head><body>${body}</body></html>`;
const ARTICLE = `<main><article><h1>STATIC-MARKER</h1>${'<p>The flood of that spring moved the river two hundred metres east, and the town followed it within a generation.</p>'.repeat(10)}</article></main>`;
const ANALYTICS = '<script>window.dataLayer = [["js", Date.now()]];</script>';
const CHROME_HEAD = `<header><nav>${['Home', 'Shop', 'Journal', 'Stores', 'Help', 'Account']
  .map((name) => `<a href="/${name.toLowerCase()}">${name}</a>`)
  .join(
    ' ',
  )}</nav><p>Free delivery on orders over 50 euros, returns within thirty days.</p></header>`;
const CHROME_FOOT = `<footer><p>${'Company, careers, press, sustainability, terms of sale, privacy. '.repeat(4)}</p></footer>`;
/** Fills `#target` with the marker as the page runs (the render's settle is not tested here). */
const fill = (target: string, marker: string) =>
  `<script>document.querySelector('${target}').innerHTML = '<h1>${marker}</h1><p>${'Content built by the page script. '.repeat(8)}</p>';</script>`;

/** Pages a fetch answers whole. */
const STATIC: Record<string, string> = {
  '/static': doc(`${ARTICLE}${ANALYTICS}`),
  '/ssr': doc(
    `<div id="__next">${ARTICLE}</div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { text: 'x'.repeat(20_000) } })}</script><script src="/_next/main.js" defer></script>`,
  ),
};

/**
 * Shells of kinds the loading patterns do not show (those are tested below): path → the
 * marker their script writes and the placeholder it replaces.
 */
const SHELLS: Record<string, { html: string; marker: string; placeholder: string }> = {
  '/shell/other-language': {
    html: doc(`<div id="app">Chargement en cours…</div>${fill('#app', 'OTHER-LANGUAGE-MARKER')}`),
    marker: 'OTHER-LANGUAGE-MARKER',
    placeholder: 'Chargement',
  },
  '/shell/empty-root': {
    html: doc(
      `<noscript>Please enable JavaScript to use this app.</noscript><div id="mount"></div><script type="module">${fill('#mount', 'EMPTY-ROOT-MARKER').replace(/<\/?script>/g, '')}</script>`,
    ),
    marker: 'EMPTY-ROOT-MARKER',
    placeholder: 'enable JavaScript',
  },
  '/shell/skeleton': {
    html: doc(
      `${CHROME_HEAD}<main><ul class="list">${'<li class="item skeleton"><span></span><span></span></li>'.repeat(5)}</ul></main>${CHROME_FOOT}${fill('main', 'SKELETON-MARKER')}`,
    ),
    marker: 'SKELETON-MARKER',
    placeholder: 'skeleton',
  },
  '/shell/busy': {
    html: doc(
      `${CHROME_HEAD}<main aria-busy="true"><h2>Your orders</h2></main>${CHROME_FOOT}${fill('main', 'BUSY-MARKER')}`,
    ),
    marker: 'BUSY-MARKER',
    placeholder: 'Your orders',
  },
};

/** Runs `work` on every item, `width` at a time (renders overlap their waits), in order. */
async function inTurns<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>) {
  const results: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index] as T);
      }
    }),
  );
  return results;
}

interface DoorAnswer {
  status: number;
  body: {
    success: boolean;
    error?: string;
    code?: string;
    data?: { markdown?: string; metadata: Record<string, unknown> };
  };
}

for (const postgres of [false, true]) {
  describe(`the door's engine choice and its credits (${postgres ? 'PostgreSQL' : 'SQLite'})`, {
    skip: postgres ? pgSkipReason : false,
  }, () => {
    let site: FixtureSite;
    let service: TestService;

    before(async () => {
      site = await startFixtureSite();
      for (const [path, html] of Object.entries(STATIC)) site.html(path, html);
      for (const [path, shell] of Object.entries(SHELLS)) site.html(path, shell.html);
      addLoadingPatterns(site);
      service = await startService({ postgres });
    });
    after(async () => {
      await service?.close();
      await site?.close();
    });

    const scrape = async (path: string, apiKey = service.apiKey): Promise<DoorAnswer> => {
      const answer = await fetch(`${service.baseUrl}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: site.url(path), formats: ['markdown'], maxAge: 0 }),
      });
      return { status: answer.status, body: (await answer.json()) as DoorAnswer['body'] };
    };
    const creditsOf = async (apiKey: string) => {
      const answer = await fetch(`${service.baseUrl}/api/account?api_key=${apiKey}`);
      return ((await answer.json()) as { credits: number }).credits;
    };
    const ledgerOf = (accountId: string) =>
      service.running.store.db
        .selectFrom('ledger')
        .select(['request_id', 'kind', 'amount'])
        .where('account_id', '=', accountId)
        .where('request_id', 'is not', null)
        .orderBy('id')
        .execute();

    // The engine choice is the same on both stores; the credits are the ledger's, on each.
    const oneStore = { skip: postgres ? 'the engine choice does not depend on the store' : false };

    it(
      'a static page and a server-rendered one stay a fetch, at the fetch price',
      oneStore,
      async () => {
        for (const path of Object.keys(STATIC)) {
          const { status, body } = await scrape(path);
          assert.equal(status, 200, JSON.stringify(body));
          assert.match(body.data?.markdown ?? '', /STATIC-MARKER/);
          assert.equal(body.data?.metadata.engine, 'fetch', path);
          assert.equal(body.data?.metadata.creditsUsed, FETCH_PRICE, path);
        }
      },
    );

    it('every kind of shell is rendered, at the render price', oneStore, async () => {
      const shells = Object.entries(SHELLS);
      const answers = await inTurns(shells, 4, ([path]) => scrape(path));
      for (const [index, [path, shell]] of shells.entries()) {
        const { status, body } = answers[index] as DoorAnswer;
        assert.equal(status, 200, JSON.stringify(body));
        const markdown = body.data?.markdown ?? '';
        assert.match(markdown, new RegExp(shell.marker), path);
        assert.ok(!markdown.includes(shell.placeholder), `${path}: ${markdown}`);
        assert.equal(body.data?.metadata.engine, 'browser', path);
        assert.equal(body.data?.metadata.creditsUsed, RENDER_PRICE, path);
      }
    });

    it(
      "every loading pattern: the door's default answers it whole, rendering only the shells",
      oneStore,
      async () => {
        // Four at a time, as the shells: the patterns that hold a render (a long poll, a
        // request that never answers) wait side by side instead of one after another.
        const answers = await inTurns(LOADING_PATTERNS, 4, (pattern) => scrape(pattern.path));
        for (const [index, pattern] of LOADING_PATTERNS.entries()) {
          const { status, body } = answers[index] as DoorAnswer;
          assert.equal(status, 200, `${pattern.name}: ${JSON.stringify(body)}`);
          const markdown = body.data?.markdown ?? '';
          assert.ok(markdown.includes(pattern.marker), `${pattern.name}: ${markdown}`);
          assert.ok(!markdown.includes(pattern.placeholder), `${pattern.name}: ${markdown}`);
          const engine = pattern.serverRendered ? 'fetch' : 'browser';
          assert.equal(body.data?.metadata.engine, engine, pattern.name);
          const price = pattern.serverRendered ? FETCH_PRICE : RENDER_PRICE;
          assert.equal(body.data?.metadata.creditsUsed, price, pattern.name);
        }
      },
    );

    it('an account with 5 credits fetches a static page', async () => {
      const account = await service.addAccount(5);
      const { status, body } = await scrape('/static', account.apiKey);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.data?.metadata.creditsUsed, FETCH_PRICE);
      assert.equal(await creditsOf(account.apiKey), 5 - FETCH_PRICE);
    });

    it('a shell the account cannot render: 402 with the figures, nothing charged', async () => {
      const account = await service.addAccount(5);
      const { status, body } = await scrape('/patterns/fetch-after-load', account.apiKey);
      assert.equal(status, 402);
      assert.equal(body.code, 'INSUFFICIENT_CREDITS');
      assert.equal(
        body.error,
        `Insufficient credits to perform this request: it needs ${RENDER_PRICE} credits and the account has ${5 - FETCH_PRICE}.`,
      );
      assert.equal(await creditsOf(account.apiKey), 5);
      const ledger = await ledgerOf(account.id);
      assert.deepEqual(
        ledger.map((row) => [row.kind, Number(row.amount)]),
        [
          ['reserve', -FETCH_PRICE],
          ['refund', FETCH_PRICE],
        ],
      );
    });

    it('a balance that cannot pay even the fetch: 402 with the figures', async () => {
      const account = await service.addAccount(0);
      const { status, body } = await scrape('/static', account.apiKey);
      assert.equal(status, 402);
      assert.equal(
        body.error,
        `Insufficient credits to perform this request: it needs ${FETCH_PRICE} credit${FETCH_PRICE === 1 ? '' : 's'} and the account has 0.`,
      );
    });

    it('escalations at once never overdraw: every request ends once, the ledger adds up', async () => {
      const start = 2 * RENDER_PRICE + 2;
      const account = await service.addAccount(start, 20);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => scrape('/shell/busy', account.apiKey)),
      );
      const rendered = answers.filter((a) => a.status === 200);
      assert.ok(rendered.length >= 1 && rendered.length <= 2, JSON.stringify(answers));
      assert.deepEqual(
        answers.filter((a) => a.status !== 200).map((a) => a.status),
        Array(6 - rendered.length).fill(402),
      );
      for (const answer of rendered) {
        assert.equal(answer.body.data?.metadata.creditsUsed, RENDER_PRICE);
      }
      const balance = await creditsOf(account.apiKey);
      assert.equal(balance, start - RENDER_PRICE * rendered.length);
      // A request refused at its first reservation left no row; every other one ended once.
      const ledger = await ledgerOf(account.id);
      const requests = new Set(ledger.map((row) => row.request_id));
      assert.ok(requests.size >= rendered.length && requests.size <= 6);
      for (const id of requests) {
        const rows = ledger.filter((row) => row.request_id === id);
        const ends = rows.filter((row) => row.kind === 'settle' || row.kind === 'refund');
        assert.equal(ends.length, 1, JSON.stringify(rows));
        // What the balance lost for the request is what its settle charged (0 when refunded).
        const moved = rows
          .filter((row) => row.kind !== 'settle')
          .reduce((sum, row) => sum + Number(row.amount), 0);
        const charged = ends[0]?.kind === 'settle' ? Number(ends[0].amount) : 0;
        assert.equal(moved + charged, 0, JSON.stringify(rows));
      }
    });
  });
}
