/**
 * The map service against a real store and fixture sites on 127.0.0.1: credits (reserve,
 * settle, refund, 402 first), the SSRF guard on every document, the discovery's bounds
 * (documents, index depth, bytes, early stop) and its deadlines.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../src/accounts/account-store.js';
import { appError } from '../../src/errors.js';
import { createMapService, type MapServiceOptions } from '../../src/map/map-service.js';
import type { MapRequest } from '../../src/map/types.js';
import { createAdmission, createMemoryAccountSlots } from '../../src/scrape/admission/admission.js';
import { createHttpClient } from '../../src/scrape/net/http-client.js';
import { openStore, type Store } from '../../src/store/db.js';
import { newId } from '../../src/store/ids.js';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';

const openHttp = createHttpClient({ allowPrivateNetworks: true, maxBodyBytes: 1 << 20 });
const guardedHttp = createHttpClient({ allowPrivateNetworks: false, maxBodyBytes: 1 << 20 });
const admission = createAdmission(createMemoryAccountSlots(), 8);
let store: Store;
let dir: string;
const sites: FixtureSite[] = [];
const services: { close(): Promise<void> }[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagegrab-map-'));
  store = await openStore({ databaseUrl: null, dataDir: dir });
});
after(async () => {
  await Promise.all([...sites, ...services, openHttp, guardedHttp].map((part) => part.close()));
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function site(): Promise<FixtureSite> {
  const started = await startFixtureSite();
  sites.push(started);
  return started;
}

async function account(credits = 10) {
  const { account } = await createAccount(store.db, {
    name: `map-${newId()}`,
    credits,
    concurrencyLimit: 1,
  });
  return account;
}

async function balanceOf(id: string) {
  const row = await store.db
    .selectFrom('accounts')
    .select('credits')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.credits);
}

async function ledgerOf(requestId: string) {
  const rows = await store.db
    .selectFrom('ledger')
    .select(['kind', 'amount'])
    .where('request_id', '=', requestId)
    .orderBy('id')
    .execute();
  return rows.map((row) => `${row.kind} ${Number(row.amount)}`);
}

function service(options: Partial<MapServiceOptions> = {}) {
  const created = createMapService({
    store,
    http: openHttp,
    admission,
    price: 1,
    maxDocumentBytes: 1024 * 1024,
    ...options,
  });
  services.push(created);
  return created;
}

const request = (url: string, extra: Partial<MapRequest> = {}): MapRequest => ({
  url,
  search: null,
  limit: 5000,
  includeSubdomains: true,
  ignoreQueryParameters: true,
  sitemap: 'include',
  filterByPath: true,
  timeoutMs: null,
  languages: [],
  ...extra,
});

const urlset = (urls: string[]) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<url><loc>${u}</loc></url>`).join('')}</urlset>`;
const index = (urls: string[]) =>
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((u) => `<sitemap><loc>${u}</loc></sitemap>`).join('')}</sitemapindex>`;

function serve(target: FixtureSite, path: string, body: string, type = 'application/xml') {
  target.route(path, (_req, res) => {
    res.setHeader('content-type', type);
    res.end(body);
  });
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string };
  }
  assert.fail('expected a failure');
}

describe('credits', () => {
  it('reserves the price and settles it once the map has answered', async () => {
    const target = await site();
    const owner = await account(10);
    const id = newId();
    const result = await service().map(owner, request(target.url('/')), id);
    assert.equal(result.creditsUsed, 1);
    assert.deepEqual(await ledgerOf(id), ['reserve -1', 'settle 1']);
    assert.equal(await balanceOf(owner.id), 9);
  });

  it('refunds a map of a site that never answers', async () => {
    const owner = await account(10);
    const id = newId();
    const error = await rejection(service().map(owner, request('http://127.0.0.1:9/'), id));
    assert.equal(error.code, 'FETCH_FAILED');
    assert.match(error.message, /connection refused/);
    assert.deepEqual(await ledgerOf(id), ['reserve -1', 'refund 1']);
    assert.equal(await balanceOf(owner.id), 10);
  });

  it('refuses a short balance before fetching anything, saying what it needed and had', async () => {
    const target = await site();
    const owner = await account(0);
    const error = await rejection(service().map(owner, request(target.url('/')), newId()));
    assert.equal(error.code, 'INSUFFICIENT_CREDITS');
    // The Firecrawl door's words, with the figures (issue 30).
    assert.match(
      error.message,
      /^Insufficient credits to perform this request: it needs \d+ credits? and the account has 0\.$/,
    );
    assert.equal(target.totalHits(), 0);
  });

  it('refunds a map whose caller went away', async () => {
    const target = await site();
    const owner = await account(10);
    const id = newId();
    const gone = new AbortController();
    const running = service().map(owner, request(target.url('/slow?ms=5000')), id, gone.signal);
    setTimeout(() => gone.abort(appError('CLIENT_CLOSED')), 100);
    assert.equal((await rejection(running)).code, 'CLIENT_CLOSED');
    assert.deepEqual(await ledgerOf(id), ['reserve -1', 'refund 1']);
  });
});

describe('admission', () => {
  it('holds one of the account scrape slots: at its limit a map is a 429, refunded', async () => {
    const target = await site();
    const owner = await account(10);
    const held = await admission.admit(owner.id, owner.concurrencyLimit, 10_000);
    try {
      const id = newId();
      const error = await rejection(service().map(owner, request(target.url('/')), id));
      assert.equal(error.code, 'TOO_MANY_CONCURRENT');
      assert.equal(target.totalHits(), 0, 'nothing fetched');
      assert.deepEqual(await ledgerOf(id), ['reserve -1', 'refund 1']);
    } finally {
      await held();
    }
    assert.equal(admission.inFlightFor(owner.id), 0);
    await service().map(owner, request(target.url('/')), newId());
    assert.equal(admission.inFlightFor(owner.id), 0, 'the map freed its slot');
  });
});

describe('the SSRF guard', () => {
  // 127.0.0.1 plays a public address; every other one is refused (nothing listens there).
  const http = createHttpClient({
    allowPrivateNetworks: false,
    maxBodyBytes: 1 << 20,
    isAllowedAddress: (ip: string) => ip === '127.0.0.1',
  });
  after(() => http.close());

  it('refuses a refused start address before reserving', async () => {
    const owner = await account(10);
    const id = newId();
    const error = await rejection(service({ http }).map(owner, request('http://127.0.0.2/'), id));
    assert.equal(error.code, 'URL_NOT_ALLOWED');
    assert.deepEqual(await ledgerOf(id), []);
  });

  it('refuses a page that redirects to a refused address, refunded', async () => {
    const target = await site();
    const owner = await account(10);
    const id = newId();
    const start = target.url('/redirect/to?url=http://127.0.0.2:8080/inside');
    const error = await rejection(service({ http }).map(owner, request(start), id));
    assert.equal(error.code, 'URL_NOT_ALLOWED');
    assert.deepEqual(await ledgerOf(id), ['reserve -1', 'refund 1']);
  });

  it('skips a sitemap on a refused address and reads the others', async () => {
    const target = await site();
    const sitemaps = ['http://127.0.0.2:8080/s.xml', target.url('/ok.xml')];
    serve(target, '/robots.txt', sitemaps.map((s) => `Sitemap: ${s}`).join('\n'), 'text/plain');
    serve(target, '/ok.xml', urlset([target.url('/from-ok')]));
    const { links } = await service({ http }).map(
      await account(),
      request(target.url('/')),
      newId(),
    );
    assert.ok(links.some((link) => link.url === target.url('/from-ok')));
  });
});

describe('bounds', () => {
  it('reads at most maxDocuments sitemap documents', async () => {
    const target = await site();
    const children = Array.from({ length: 10 }, (_, i) => target.url(`/s/${i}.xml`));
    serve(target, '/robots.txt', `Sitemap: ${target.url('/index.xml')}`, 'text/plain');
    serve(target, '/index.xml', index(children));
    for (const [i, url] of children.entries()) {
      serve(target, new URL(url).pathname, urlset([target.url(`/p${i}`)]));
    }
    const limits = { maxDocuments: 4, concurrency: 1 };
    await service({ limits }).map(await account(), request(target.url('/')), newId());
    // The index and /sitemap.xml count: two children are left.
    const read = children.filter((url) => target.hits(new URL(url).pathname) > 0);
    assert.equal(read.length, 2);
  });

  it('follows sitemap indexes at most maxDepth levels down', async () => {
    const target = await site();
    serve(target, '/robots.txt', `Sitemap: ${target.url('/i0.xml')}`, 'text/plain');
    serve(target, '/i0.xml', index([target.url('/i1.xml')]));
    serve(target, '/i1.xml', index([target.url('/i2.xml')]));
    serve(target, '/i2.xml', urlset([target.url('/deep')]));
    const { links } = await service({ limits: { maxDepth: 1 } }).map(
      await account(),
      request(target.url('/'), { sitemap: 'only' }),
      newId(),
    );
    assert.equal(target.hits('/i1.xml'), 1);
    assert.equal(target.hits('/i2.xml'), 0);
    assert.deepEqual(links, []);
  });

  it('skips a sitemap larger than the document bound and reads the others', async () => {
    const target = await site();
    const big = urlset(Array.from({ length: 400 }, (_, i) => target.url(`/big/${i}`)));
    serve(
      target,
      '/robots.txt',
      `Sitemap: ${target.url('/big.xml')}\nSitemap: ${target.url('/small.xml')}`,
      'text/plain',
    );
    serve(target, '/big.xml', big);
    serve(target, '/small.xml', urlset([target.url('/small')]));
    const { links } = await service({ maxDocumentBytes: 8 * 1024 }).map(
      await account(),
      request(target.url('/'), { sitemap: 'only' }),
      newId(),
    );
    assert.deepEqual(
      links.map((link) => link.url),
      [target.url('/small')],
    );
  });

  it('stops reading sitemaps once it has limit links, unless it must rank a search', async () => {
    const target = await site();
    const children = [1, 2, 3].map((n) => target.url(`/c${n}.xml`));
    serve(target, '/robots.txt', `Sitemap: ${target.url('/index.xml')}`, 'text/plain');
    serve(target, '/index.xml', index(children));
    for (const [n, url] of children.entries()) {
      serve(target, new URL(url).pathname, urlset([1, 2, 3].map((i) => target.url(`/c${n}/${i}`))));
    }
    const maps = service({ limits: { concurrency: 1 } });
    const limited = request(target.url('/'), { sitemap: 'only', limit: 3 });
    const { links } = await maps.map(await account(), limited, newId());
    assert.equal(links.length, 3);
    assert.equal(target.hits('/c3.xml'), 0);
    await maps.map(await account(), { ...limited, search: 'c2' }, newId());
    assert.equal(target.hits('/c3.xml'), 1);
  });
});

describe('deadlines', () => {
  it("without the caller's timeout, answers what it found when the budget runs out", async () => {
    const target = await site();
    serve(target, '/robots.txt', `Sitemap: ${target.url('/slow-sitemap.xml')}`, 'text/plain');
    target.route('/slow-sitemap.xml', (_req, res) => {
      const timer = setTimeout(() => res.end(urlset([target.url('/late')])), 10_000);
      res.on('close', () => clearTimeout(timer));
    });
    const owner = await account(10);
    const { links } = await service({ budgetMs: 500 }).map(
      owner,
      request(target.url('/')),
      newId(),
    );
    const urls = links.map((link) => link.url);
    assert.ok(urls.includes(target.url('/page')), 'the page links are there');
    assert.ok(!urls.includes(target.url('/late')));
    assert.equal(await balanceOf(owner.id), 9);
  });

  it("with the caller's timeout, fails with TIMED_OUT and refunds", async () => {
    const target = await site();
    const owner = await account(10);
    const id = newId();
    const slow = request(target.url('/slow?ms=5000'), { timeoutMs: 200 });
    const error = await rejection(service().map(owner, slow, id));
    assert.equal(error.code, 'TIMED_OUT');
    assert.deepEqual(await ledgerOf(id), ['reserve -1', 'refund 1']);
  });
});
