/**
 * A warm page is closed once it has served `pageReuseLimit` renders or routed
 * `pageRequestLimit` requests: Playwright keeps each routed request's objects until the page
 * closes, so a page of many sub-requests must not be kept for 50 renders.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { renderPlan } from './plan-fixture.js';

const IMAGES = 12;
let site: FixtureSite;

before(async () => {
  site = await startFixtureSite();
  const images = Array.from({ length: IMAGES }, (_, i) => `<img src="/img/${i}.svg">`).join('');
  site.html('/many', `<!doctype html><title>many</title>${images}`);
  site.html('/few', '<!doctype html><title>few</title><p>few</p>');
  for (let i = 0; i < IMAGES; i++) {
    site.route(`/img/${i}.svg`, (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'no-store' });
      res.end('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>');
    });
  }
});
after(() => site.close());

/** Contexts created by three renders of `path` on one warm page (limit 10 requests). */
async function contextsFor(path: string): Promise<number> {
  const engine = createBrowserEngine({
    allowPrivateNetworks: true,
    maxConcurrentPages: 1,
    pageRequestLimit: 10,
  });
  try {
    for (let i = 0; i < 3; i++) await engine.render(renderPlan(site.url(path)));
    return engine.status().contextsCreated;
  } finally {
    await engine.close();
  }
}

test('a page that routed more requests than its limit is not reused', async () => {
  // 13 requests per render: every render is over the limit of 10, so each gets a new page.
  assert.equal(await contextsFor('/many'), 3);
  // 1 request per render: the warm page serves all three.
  assert.equal(await contextsFor('/few'), 1);
});
