/**
 * The scrape use case with its real parts (embedded store, planner, admission, fetch engine,
 * output workers) against a loopback site, without HTTP: what every door relies on.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Account, createAccount, getAccount } from '../../src/accounts/account-store.js';
import { buildScrapeParts, type ScrapeParts } from '../../src/compose/scrape-parts.js';
import { loadConfig } from '../../src/config.js';
import { appError } from '../../src/errors.js';
import { createHttpClient } from '../../src/scrape/net/http-client.js';
import { parseScraperRequest } from '../../src/scrape/params/index.js';
import { ScrapeUseCase } from '../../src/scrape/scrape-use-case.js';
import { openStore, type Store } from '../../src/store/db.js';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';

let dir: string;
let site: FixtureSite;
let store: Store;
let parts: ScrapeParts;
let scraper: ScrapeUseCase;
let account: Account;
const scraped: string[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagegrab-use-case-'));
  site = await startFixtureSite();
  site.html('/', '<!doctype html><title>Use case</title><p>Hello from the fixture</p>');
  const config = loadConfig({ DATA_DIR: dir, ALLOW_PRIVATE_NETWORKS: 'true' });
  store = await openStore({ databaseUrl: null, dataDir: dir });
  const http = createHttpClient({
    allowPrivateNetworks: true,
    maxBodyBytes: config.maxBodyBytes,
  });
  parts = await buildScrapeParts(config, store, 'use-case-test', () => {}, http);
  scraper = new ScrapeUseCase({
    store,
    planner: parts.planner,
    admission: parts.admission,
    pipeline: parts.pipeline,
    metrics: { scraped: (_e, _o, outcome) => scraped.push(outcome), charged: () => {} },
  });
  ({ account } = await createAccount(store.db, { name: 'uc', credits: 100, concurrencyLimit: 2 }));
});

after(async () => {
  await parts.close();
  await store.close();
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const balance = async () => (await getAccount(store.db, account.id))?.credits;

test('prepare then execute returns the page and charges its price once', async () => {
  const before = await balance();
  const plan = await scraper.prepare(account, { url: site.url('/') });
  const done = await scraper.execute(plan);
  assert.equal(done.outcome.ok, true);
  if (done.outcome.ok) assert.match(String(done.outcome.result.body), /Hello from the fixture/);
  assert.equal(done.charged, plan.price);
  assert.equal(await balance(), (before ?? 0) - plan.price);
});

test('a run whose caller left before it started ends with that reason, refunded, with no stray rejection', async () => {
  const stray: unknown[] = [];
  const onStray = (reason: unknown) => stray.push(reason);
  process.on('unhandledRejection', onStray);
  try {
    const before = await balance();
    const plan = await scraper.prepare(account, { url: site.url('/') });
    const gone = new AbortController();
    gone.abort(appError('CLIENT_CLOSED'));
    const done = await scraper.execute(plan, { signal: gone.signal });
    assert.equal(done.outcome.ok, false);
    if (!done.outcome.ok) assert.equal(done.outcome.error.code, 'CLIENT_CLOSED');
    assert.equal(done.charged, 0);
    assert.equal(await balance(), before);
    // An engine's rejection nobody awaited would surface here (and end a real node).
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(stray, []);
  } finally {
    process.off('unhandledRejection', onStray);
  }
});

test('beforeSettle can keep the scrape unsettled, and settle later charges once', async () => {
  const before = await balance();
  const plan = await scraper.prepare(account, { url: site.url('/') });
  const deferred = await scraper.execute(plan, { beforeSettle: async () => null });
  assert.equal(deferred.settled, false);
  assert.equal(await balance(), (before ?? 0) - plan.price, 'the reservation stays');
  const settled = await scraper.settle(plan, deferred.outcome);
  assert.equal(settled.charged, plan.price);
  assert.equal(await balance(), (before ?? 0) - plan.price);
});

test('a job payload stored before plans were complete is planned again', () => {
  const plan = scraper.restore({
    requestId: 'r-old',
    accountId: account.id,
    concurrencyLimit: 2,
    workflowId: null,
    options: parseScraperRequest({ url: site.url('/'), block_ads: 'true' }),
    price: 1,
    createdAt: 1,
  });
  assert.equal(plan.engine, 'fetch');
  assert.equal(plan.output, 'html');
  assert.deepEqual(plan.block, { ads: true, cookieBanners: false, chatWidgets: false });
  assert.equal(plan.isolationKey, account.id);
  assert.deepEqual(plan.proxies, []);
});
