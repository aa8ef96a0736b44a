/**
 * A big sitemap does not stall the node (issue 24): while a map reads a 50,000-entry sitemap,
 * the service keeps answering other requests. The service runs in this process, so a stalled
 * event loop stalls /healthz too; the test counts the /healthz answers that arrive between
 * the sitemap's last byte leaving the site and the map's answer (once parsed in one
 * synchronous run, that window held no answer at all). No times are asserted: the time
 * bound is measured by bench/map-event-loop.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { startService, type TestService } from '../helpers/service.js';

/** The protocol's largest sitemap. */
const ENTRIES = 50_000;
/** Answers that show the loop kept turning; a yielding read gives dozens. */
const MIN_ANSWERS = 3;

let site: FixtureSite;
let service: TestService;
let sitemapSent = false;

before(async () => {
  site = await startFixtureSite();
  const base = `http://localhost:${site.port}`;
  const entries = Array.from(
    { length: ENTRIES },
    (_, i) => `<url><loc>${base}/docs/page-${i}</loc><lastmod>2024-01-01</lastmod></url>`,
  );
  const sitemap = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`;
  site.route('/sitemap.xml', (_req, res) => {
    res.setHeader('content-type', 'application/xml');
    res.end(sitemap, () => {
      sitemapSent = true;
    });
  });
  site.html('/', '<!doctype html><title>Big sitemap</title><a href="/about">About</a>');
  service = await startService();
});
after(async () => {
  await service?.close();
  await site?.close();
});

describe('a map of a 50,000-entry sitemap', () => {
  it('lets /healthz answer while the sitemap is read and ranked', async () => {
    let mapAnswered = false;
    let answersWhileReading = 0;
    const probe = (async () => {
      while (!mapAnswered) {
        const response = await fetch(`${service.baseUrl}/healthz`);
        await response.arrayBuffer();
        assert.equal(response.status, 200);
        if (sitemapSent && !mapAnswered) answersWhileReading += 1;
      }
    })();

    // `search` reads and ranks every entry before the cut: the most work one map does.
    const response = await fetch(`${service.baseUrl}/v2/map`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        url: `http://localhost:${site.port}/`,
        search: 'page-49999',
        limit: 5,
      }),
      signal: AbortSignal.timeout(60_000),
    });
    const body = (await response.json()) as { success: boolean; links: { url: string }[] };
    mapAnswered = true;
    await probe;

    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.links[0]?.url, `http://localhost:${site.port}/docs/page-49999`);
    assert.ok(sitemapSent, 'the sitemap was read');
    assert.ok(
      answersWhileReading >= MIN_ANSWERS,
      `/healthz answered ${answersWhileReading} times while the map read its sitemap`,
    );
  });
});
