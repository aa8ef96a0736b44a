/**
 * Issue 24, point 6: a render never answers Chromium's error page. A page whose meta refresh
 * or script moves it, after the load, to an address the guard refuses (127.0.0.2: the test's
 * address policy takes only 127.0.0.1 for public) or to one that fails (255.255.255.255,
 * taken for public here, fails at once with ENETUNREACH) once landed on
 * `chrome-error://chromewebdata/` and was answered 200 and charged 15 credits. It is a
 * failed scrape: 502, the balance untouched, a failed run record.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { startService, type TestService } from '../helpers/service.js';

let site: FixtureSite;
let service: TestService;

before(async () => {
  site = await startFixtureSite();
  const moving = (to: string) =>
    `<p>moving</p><script>location.href = ${JSON.stringify(to)}</script>`;
  site.html('/meta', '<meta http-equiv="refresh" content="0;url=http://127.0.0.2/"><p>moving</p>');
  site.html('/script', moving('http://127.0.0.2/x'));
  site.html('/unreachable', moving('http://255.255.255.255/x'));
  site.html('/blank', moving('about:blank'));
  service = await startService({
    allowPrivateNetworks: false,
    addressPolicy: (ip) => ip === '127.0.0.1' || ip === '255.255.255.255',
  });
});

after(async () => {
  await service?.close();
  await site?.close();
});

async function balance(): Promise<number> {
  const res = await fetch(`${service.baseUrl}/api/account?api_key=${service.apiKey}`);
  return ((await res.json()) as { credits: number }).credits;
}

async function lastRecord(url: string) {
  return service.running.store.db
    .selectFrom('requests')
    .select(['status', 'status_code', 'credits', 'error'])
    .where('account_id', '=', service.accountId)
    .where('url', '=', url)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

describe('a render that ends off the web is a failed scrape', () => {
  const cases: [string, string, string][] = [
    [
      'a meta refresh to a refused address',
      '/meta',
      'Failed to fetch the page: the page moved to 127.0.0.2, a non-public address',
    ],
    [
      'a script move to a refused address',
      '/script',
      'Failed to fetch the page: the page moved to 127.0.0.2, a non-public address',
    ],
    [
      'a script move to an address that fails at once',
      '/unreachable',
      'Failed to fetch the page: address unreachable',
    ],
    [
      'a script move to about:blank',
      '/blank',
      'Failed to fetch the page: the page moved to about:blank',
    ],
  ];
  for (const [name, path, error] of cases) {
    it(`${name}: 502, not charged, recorded as failed`, async () => {
      const url = site.url(path);
      const before = await balance();
      const query = new URLSearchParams({ api_key: service.apiKey, render: 'true', url });
      const res = await fetch(`${service.baseUrl}/api/scraper?${query}`);
      const text = await res.text();
      assert.equal(res.status, 502, text);
      assert.deepEqual(JSON.parse(text), { error });
      assert.equal(await balance(), before);
      assert.deepEqual(await lastRecord(url), {
        status: 'failed',
        status_code: 502,
        credits: 0,
        error,
      });
    });
  }
});
