/**
 * The Firecrawl door's map, driven by Firecrawl's own SDK (@mendable/firecrawl-js, v2 `map`
 * and v1 `mapUrl`) against the real service and fixture sites on loopback: a site whose
 * robots.txt names a sitemap index of a plain and a gzipped sitemap, a site without any
 * sitemap, the sitemap modes, search, limit, subdomains, query parameters, credits and the
 * errors as the SDK surfaces them.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { startService, type TestService } from '../../helpers/service.js';
import {
  HOME_DESCRIPTION,
  HOME_TITLE,
  type SitemapSite,
  withoutSitemaps,
  withSitemaps,
} from '../../helpers/sitemap-site.js';

let service: TestService;
let fc: Firecrawl;
let site: FixtureSite;
let mapped: SitemapSite;
let bare: FixtureSite;

before(async () => {
  [service, site, bare] = await Promise.all([
    startService(),
    startFixtureSite(),
    startFixtureSite(),
  ]);
  mapped = withSitemaps(site);
  withoutSitemaps(bare);
  fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl, maxRetries: 1 });
});

after(async () => {
  await Promise.all([service?.close(), site?.close(), bare?.close()]);
});

beforeEach(() => {
  site.resetCounters();
});

const urlsOf = (links: { url: string }[]) => links.map((link) => link.url);

async function failure(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    return error as { status?: number; message: string; code?: string; details?: unknown };
  }
  assert.fail('expected a failure');
}

describe('v2 map of a site with a sitemap index', () => {
  it('lists the pages of both sitemaps, the gzipped one too, and the page links', async () => {
    const { links } = await fc.map(mapped.home);
    const urls = urlsOf(links);
    for (const url of [...mapped.pagesSitemap, ...mapped.blogSitemap, ...mapped.pageOnly]) {
      assert.ok(urls.includes(url), `${url} in ${urls.join(' ')}`);
    }
    assert.equal(site.hits('/robots.txt'), 1);
    assert.equal(site.hits('/sitemap-index.xml'), 1);
    assert.equal(site.hits('/sitemaps/blog.xml.gz'), 1);
  });

  it('gives the start page its title and description, and sitemap entries neither', async () => {
    const { links } = await fc.map(mapped.home);
    assert.deepEqual(links[0], {
      url: mapped.home,
      title: HOME_TITLE,
      description: HOME_DESCRIPTION,
    });
    const intro = links.find((link) => link.url === mapped.pagesSitemap[0]);
    assert.deepEqual(intro, {
      url: mapped.pagesSitemap[0],
      title: undefined,
      description: undefined,
    });
  });

  it('lists each page once, without fragments, and nothing off the site', async () => {
    const urls = urlsOf((await fc.map(mapped.home)).links);
    assert.equal(new Set(urls).size, urls.length);
    assert.ok(urls.every((url) => !url.includes('#')));
    assert.ok(!urls.some((url) => url.includes('elsewhere.example') || url.startsWith('mailto:')));
  });

  it("sitemap 'only' lists the sitemaps' pages and not the page's links", async () => {
    const urls = urlsOf((await fc.map(mapped.home, { sitemap: 'only' })).links);
    assert.deepEqual(
      new Set(urls),
      new Set([...mapped.pagesSitemap, ...mapped.blogSitemap, mapped.subdomain[0]]),
    );
    assert.equal(site.hits('/'), 0);
  });

  it("sitemap 'skip' lists the page and its links without reading any sitemap", async () => {
    const urls = urlsOf((await fc.map(mapped.home, { sitemap: 'skip' })).links);
    assert.deepEqual(urls, [
      mapped.home,
      ...mapped.pageOnly,
      mapped.pagesSitemap[0],
      mapped.subdomain[1],
    ]);
    assert.equal(site.hits('/robots.txt') + site.hits('/sitemap-index.xml'), 0);
  });

  it('search puts the links that contain the term first', async () => {
    const urls = urlsOf((await fc.map(mapped.home, { search: 'blog' })).links);
    const firstNonMatch = urls.findIndex((url) => !url.includes('blog'));
    const lastMatch = urls.findLastIndex((url) => url.includes('blog'));
    assert.ok(lastMatch >= 3, urls.join(' '));
    assert.ok(lastMatch < firstNonMatch, urls.join(' '));
    assert.ok(urls.includes(mapped.home), 'the rest still follow');
  });

  it('limit caps the links', async () => {
    const { links } = await fc.map(mapped.home, { limit: 3 });
    assert.equal(links.length, 3);
    assert.equal(links[0]?.url, mapped.home);
  });

  it('includeSubdomains takes in blog.localhost, and leaves it out when false', async () => {
    const all = urlsOf((await fc.map(mapped.home)).links);
    for (const url of mapped.subdomain) assert.ok(all.includes(url), url);
    const own = urlsOf((await fc.map(mapped.home, { includeSubdomains: false })).links);
    assert.ok(!own.some((url) => url.includes('blog.localhost')), own.join(' '));
    assert.ok(own.includes(mapped.pagesSitemap[0] as string));
  });

  it('drops query parameters by default and keeps them with ignoreQueryParameters false', async () => {
    const dropped = urlsOf((await fc.map(mapped.home)).links);
    assert.ok(dropped.includes(`${mapped.base}/docs/guide`));
    const kept = urlsOf((await fc.map(mapped.home, { ignoreQueryParameters: false })).links);
    assert.ok(kept.includes(mapped.guideWithQuery), kept.join(' '));
  });

  it('charges one credit per map', async () => {
    const before = (await fc.getCreditUsage()).remainingCredits;
    await fc.map(mapped.home, { limit: 1 });
    assert.equal((await fc.getCreditUsage()).remainingCredits, before - 1);
  });
});

describe('map of a site without sitemaps', () => {
  it('lists the page and its links, relative ones resolved, queries dropped', async () => {
    const base = `http://localhost:${bare.port}`;
    const { links } = await fc.map(`${base}/`);
    assert.deepEqual(urlsOf(links), [`${base}/`, `${base}/one`, `${base}/two`, `${base}/three`]);
    assert.equal(links[0]?.title, 'No sitemap here');
  });

  it("sitemap 'only' answers no links", async () => {
    const { links } = await fc.map(`http://localhost:${bare.port}/`, { sitemap: 'only' });
    assert.deepEqual(links, []);
  });
});

describe('v1 map', () => {
  it('answers a list of strings', async () => {
    const answer = await fc.v1.mapUrl(mapped.home, {});
    assert.equal(answer.success, true);
    const links = (answer as { links: string[] }).links;
    assert.ok(links.every((link) => typeof link === 'string'));
    for (const url of [...mapped.blogSitemap, ...mapped.pageOnly])
      assert.ok(links.includes(url), url);
  });

  it('sitemapOnly and ignoreSitemap are sitemap only and skip', async () => {
    const only = (await fc.v1.mapUrl(mapped.home, { sitemapOnly: true })) as { links: string[] };
    assert.ok(!only.links.includes(mapped.pageOnly[0] as string));
    assert.ok(only.links.includes(mapped.blogSitemap[0] as string));
    const skip = (await fc.v1.mapUrl(mapped.home, { ignoreSitemap: true })) as { links: string[] };
    assert.ok(skip.links.includes(mapped.pageOnly[0] as string));
    assert.ok(!skip.links.includes(mapped.blogSitemap[0] as string));
  });

  it('keeps query parameters by default, as v1 does', async () => {
    const answer = (await fc.v1.mapUrl(mapped.home, { sitemapOnly: true })) as { links: string[] };
    assert.ok(answer.links.includes(mapped.guideWithQuery), answer.links.join(' '));
  });
});

describe('map errors as the SDK surfaces them', () => {
  it('400 for an unknown field (the v1 SDK sends any field it is given)', async () => {
    const error = await failure(() => fc.v1.mapUrl(mapped.home, { bogus: 1 } as never));
    // The v1 SDK's HTTP client throws on any 4xx and keeps only its status.
    assert.match(error.message, /status code 400/);
  });

  it("400 answers Firecrawl's envelope with the unrecognized key named", async () => {
    // The v2 SDK drops fields it does not know, so this one is sent by hand.
    const response = await fetch(`${service.baseUrl}/v2/map`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: mapped.home, bogus: 1 }),
    });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), {
      success: false,
      code: 'BAD_REQUEST',
      error:
        'Unrecognized key in body -- please review the v2 API documentation for request body changes',
      details: [
        {
          code: 'unrecognized_keys',
          keys: ['bogus'],
          path: [],
          message: 'Unrecognized key: "bogus"',
        },
      ],
    });
    assert.equal(site.totalHits(), 0);
  });

  it('401 without a valid key', async () => {
    const bad = new Firecrawl({ apiKey: 'pgk_not-a-key', apiUrl: service.baseUrl, maxRetries: 1 });
    const error = await failure(() => bad.map(mapped.home));
    assert.equal(error.status, 401);
  });

  it('402 when the credits run out, before anything is fetched', async () => {
    const poor = await service.addAccount(0);
    const client = new Firecrawl({ apiKey: poor.apiKey, apiUrl: service.baseUrl, maxRetries: 1 });
    const error = await failure(() => client.map(mapped.home));
    assert.equal(error.status, 402);
    assert.equal(site.totalHits(), 0);
  });

  it('refunds a map of a site that never answers', async () => {
    const before = (await fc.getCreditUsage()).remainingCredits;
    const error = await failure(() => fc.map('http://localhost:9/'));
    assert.equal(error.status, 500);
    assert.match(error.message, /connection refused/);
    assert.equal((await fc.getCreditUsage()).remainingCredits, before);
  });

  it('408 when the caller’s timeout passes, refunded', async () => {
    const before = (await fc.getCreditUsage()).remainingCredits;
    const error = await failure(() => fc.map(site.url('/slow?ms=5000'), { timeout: 300 }));
    assert.equal(error.status, 408);
    assert.match(error.message, /Timed out after 300 ms/);
    assert.equal((await fc.getCreditUsage()).remainingCredits, before);
  });

  it('403 for an address the guard refuses', async () => {
    const guarded = await startService({ allowPrivateNetworks: false });
    try {
      const client = new Firecrawl({
        apiKey: guarded.apiKey,
        apiUrl: guarded.baseUrl,
        maxRetries: 1,
      });
      const error = await failure(() => client.map(mapped.home));
      assert.equal(error.status, 403);
      assert.match(error.message, /URL is not allowed/);
      assert.equal(site.totalHits(), 0);
    } finally {
      await guarded.close();
    }
  });
});

describe('OpenAPI', () => {
  it('documents both map routes under the firecrawl tag, with their body fields', async () => {
    type Operation = {
      tags?: string[];
      requestBody?: {
        content: Record<string, { schema: { properties?: Record<string, unknown> } }>;
      };
    };
    const doc = (await (await fetch(`${service.baseUrl}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const fields = (path: string) =>
      Object.keys(
        doc.paths[path]?.post?.requestBody?.content['application/json']?.schema.properties ?? {},
      );
    assert.ok(doc.paths['/v2/map']?.post?.tags?.includes('firecrawl'));
    assert.ok(doc.paths['/v1/map']?.post?.tags?.includes('firecrawl'));
    for (const field of [
      'url',
      'search',
      'limit',
      'includeSubdomains',
      'sitemap',
      'timeout',
      'origin',
    ]) {
      assert.ok(fields('/v2/map').includes(field), `v2 ${field}`);
    }
    for (const field of ['ignoreSitemap', 'sitemapOnly']) {
      assert.ok(fields('/v1/map').includes(field), `v1 ${field}`);
    }
  });
});
