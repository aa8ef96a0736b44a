/**
 * The Firecrawl door's scrape, driven by Firecrawl's own SDK (@mendable/firecrawl-js) against
 * the real service and a fixture site on loopback: formats alone and together, options,
 * actions, the cache, and the errors as the SDK surfaces them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { startService, type TestService } from '../../helpers/service.js';

let site: FixtureSite;
let service: TestService;
let fc: Firecrawl;

const ARTICLE = `<!doctype html><html lang="en"><head>
<title>The article</title>
<meta name="description" content="About fixtures">
<meta name="keywords" content="a, b">
<meta name="robots" content="index,follow">
<meta property="og:title" content="OG title">
<meta name="twitter:card" content="summary">
<link rel="icon" href="/favicon.png">
</head><body>
<nav class="site-nav"><a href="/home">Home</a> <a href="/about">About</a> <span>NAVIGATION-MARKER</span></nav>
<main><article>
<h1>Main heading</h1>
<p class="lead">The first paragraph of the article, long enough to be the main content of this page. ${'More words of the article body. '.repeat(20)}</p>
<p class="aside-note">EXCLUDED-MARKER in a paragraph to exclude.</p>
<p>Read <a href="/next">the next article</a>.</p>
<div hidden>HIDDEN-MARKER</div>
<script>var SCRIPT_MARKER = 1;</script>
</article></main>
<footer>FOOTER-MARKER</footer>
</body></html>`;

const SPA = `<!doctype html><html><head><title>App</title></head><body>
<div id="root"></div>
<script>document.getElementById('root').innerHTML = '<p>RENDERED-BY-SCRIPT</p>';</script>
</body></html>`;

const ACTIONS = `<!doctype html><html><head><title>Actions</title></head><body>
<input id="q"><button id="go" onclick="document.getElementById('out').textContent='clicked:'+document.getElementById('q').value">Go</button>
<div id="out"></div>
<button class="more" onclick="this.textContent='done'">more</button><button class="more" onclick="this.textContent='done'">more</button>
<div id="keys"></div>
<script>document.addEventListener('keydown', (e) => { document.getElementById('keys').textContent += e.key; });</script>
<div style="height:3000px"></div><p id="bottom">bottom</p>
</body></html>`;

const STRUCTURED = `<!doctype html><html><head><title>Lamp</title>
<meta property="og:title" content="Desk lamp">
<script type="application/ld+json">{"@type":"Product","name":"Desk lamp"}</script>
<script type="application/ld+json">{"@type":"Product", "name": </script>
</head><body><main><p>A desk lamp with a warm light.</p>
<div itemscope itemtype="https://schema.org/Offer"><span itemprop="price">20</span></div></main></body></html>`;

before(async () => {
  site = await startFixtureSite();
  site.html('/article', ARTICLE);
  site.html('/structured', STRUCTURED);
  site.html('/spa', SPA);
  site.html('/actions', ACTIONS);
  site.route('/touch', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<html><head><meta name="viewport" content="width=device-width"></head><body><p id="ua">${req.headers['user-agent']}</p><p id="lang">${req.headers['accept-language']}</p><script>document.body.insertAdjacentHTML('beforeend', '<p id="touch">touch:' + ('ontouchstart' in window) + ' width:' + window.innerWidth + '</p>')</script></body></html>`,
    );
  });
  service = await startService({ credits: 10_000 });
  fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl });
});
after(async () => {
  await service?.close();
  await site?.close();
});

describe('formats', () => {
  it('markdown by default: the main content, metadata always', async () => {
    const before = (await fc.getCreditUsage()).remainingCredits;
    const doc = await fc.scrape(site.url('/article'), { maxAge: 0 });
    const after = (await fc.getCreditUsage()).remainingCredits;
    assert.equal(
      before - after,
      1,
      'the render reserved for a page that might need it is returned',
    );
    assert.match(doc.markdown ?? '', /Main heading/);
    assert.doesNotMatch(doc.markdown ?? '', /NAVIGATION-MARKER|FOOTER-MARKER/);
    assert.equal(doc.html, undefined);
    const m = doc.metadata ?? {};
    assert.equal(m.title, 'The article');
    assert.equal(m.description, 'About fixtures');
    assert.equal(m.language, 'en');
    assert.equal(m.statusCode, 200);
    assert.equal(m.sourceURL, site.url('/article'));
    assert.equal(m.url, site.url('/article'));
    assert.equal(m.cacheState, 'miss');
    assert.equal(m.creditsUsed, 1, 'a fetch, not a render');
    assert.equal(typeof m.scrapeId, 'string');
  });

  it("the page's JSON-LD and microdata in the metadata; malformed JSON-LD fails nothing", async () => {
    const doc = await fc.scrape(site.url('/structured'), { maxAge: 0 });
    assert.match(doc.markdown ?? '', /warm light/);
    const m = doc.metadata ?? {};
    assert.equal(m.ogTitle, 'Desk lamp');
    assert.deepEqual(m.jsonLd, [{ '@type': 'Product', name: 'Desk lamp' }]);
    assert.deepEqual(m.microdata, [
      { type: ['https://schema.org/Offer'], properties: { price: ['20'] } },
    ]);
  });

  it('each format alone and all together from one load', async () => {
    for (const format of ['html', 'rawHtml', 'links'] as const) {
      const doc = await fc.scrape(site.url('/article'), { formats: [format], maxAge: 0 });
      assert.ok(doc[format] !== undefined, `${format} present`);
      assert.equal(doc.markdown, undefined, `only ${format}`);
    }
    const before = site.hits('/article');
    const doc = await fc.scrape(site.url('/article'), {
      formats: ['markdown', 'html', 'rawHtml', 'links', 'screenshot'],
      maxAge: 0,
    });
    assert.equal(site.hits('/article') - before, 1, 'one load for every format');
    assert.match(doc.rawHtml ?? '', /SCRIPT_MARKER/);
    assert.doesNotMatch(doc.html ?? '', /SCRIPT_MARKER|HIDDEN-MARKER/);
    assert.ok(doc.links?.includes(site.url('/next')), 'links are absolute');
    assert.match(doc.screenshot ?? '', /^http:\/\/127\.0\.0\.1:\d+\/v2\/screenshots\/[\w-]{22}$/);
    const image = await fetch(doc.screenshot ?? '');
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.deepEqual(
      [...new Uint8Array(await image.arrayBuffer()).slice(0, 4)],
      [0x89, 0x50, 0x4e, 0x47],
    );
  });

  it('a screenshot inline as base64 when asked, JPEG with a quality', async () => {
    const doc = await fc.scrape(site.url('/article'), {
      formats: [{ type: 'screenshot', quality: 50, base64: true } as never],
      maxAge: 0,
    });
    assert.match(doc.screenshot ?? '', /^data:image\/jpeg;base64,\/9j\//);
  });

  it('onlyMainContent false: the whole page, still without scripts and hidden elements', async () => {
    const doc = await fc.scrape(site.url('/article'), {
      formats: ['markdown', 'html'],
      onlyMainContent: false,
      maxAge: 0,
    });
    assert.match(doc.markdown ?? '', /NAVIGATION-MARKER/);
    assert.match(doc.markdown ?? '', /FOOTER-MARKER/);
    assert.doesNotMatch(doc.html ?? '', /SCRIPT_MARKER|HIDDEN-MARKER/);
  });

  it('includeTags and excludeTags apply before conversion', async () => {
    const doc = await fc.scrape(site.url('/article'), {
      formats: ['markdown'],
      includeTags: ['article'],
      excludeTags: ['.aside-note'],
      onlyMainContent: false,
      maxAge: 0,
    });
    assert.match(doc.markdown ?? '', /Main heading/);
    assert.doesNotMatch(doc.markdown ?? '', /NAVIGATION-MARKER|FOOTER-MARKER|EXCLUDED-MARKER/);
  });
});

describe('engine choice', () => {
  it('renders a page that plainly needs JavaScript, and charges the render only then', async () => {
    const doc = await fc.scrape(site.url('/spa'), { formats: ['markdown'], maxAge: 0 });
    assert.match(doc.markdown ?? '', /RENDERED-BY-SCRIPT/);
    assert.equal(doc.metadata?.creditsUsed, 15);
  });

  it('mobile: a phone viewport, user agent and touch; languages become Accept-Language', async () => {
    const doc = await fc.scrape(site.url('/touch'), {
      formats: ['html'],
      mobile: true,
      location: { languages: ['de-DE', 'en'] },
      maxAge: 0,
    });
    assert.match(doc.html ?? '', /Mobile/);
    assert.match(doc.html ?? '', /touch:true/);
    const width = Number(/width:(\d+)/.exec(doc.html ?? '')?.[1]);
    assert.ok(width > 0 && width < 600, `a phone's width, got ${width}`);
    assert.match(doc.html ?? '', /de-DE,en;q=0\.9/);
  });
});

describe('actions', () => {
  it('every kind, with screenshots, scrapes and JavaScript returns in actions', async () => {
    const doc = await fc.scrape(site.url('/actions'), {
      formats: ['rawHtml'],
      maxAge: 0,
      actions: [
        { type: 'wait', milliseconds: 50 },
        { type: 'wait', selector: '#go' },
        { type: 'click', selector: '#q' },
        { type: 'write', text: 'hello' },
        { type: 'click', selector: '#go' },
        { type: 'click', selector: '.more', all: true } as never,
        { type: 'press', key: 'Enter' },
        { type: 'scroll', direction: 'down' },
        { type: 'screenshot' },
        { type: 'scrape' },
        { type: 'executeJavascript', script: "return document.getElementById('out').textContent" },
      ],
    });
    assert.match(doc.rawHtml ?? '', /clicked:hello/);
    assert.equal(
      (doc.rawHtml ?? '').match(/>done</g)?.length,
      2,
      'click with all clicks every match',
    );
    assert.match(doc.rawHtml ?? '', /id="keys">[^<]*Enter/);
    const actions = doc.actions as {
      screenshots: string[];
      scrapes: { url: string; html: string }[];
      javascriptReturns: { type: string; value: unknown }[];
    };
    assert.equal(actions.screenshots.length, 1);
    assert.equal(actions.scrapes.length, 1);
    assert.match(actions.scrapes[0]?.html ?? '', /clicked:hello/);
    assert.deepEqual(actions.javascriptReturns, [{ type: 'string', value: 'clicked:hello' }]);
  });
});

describe('the cache', () => {
  it('a second scrape within maxAge answers from the cache, marked hit', async () => {
    const path = '/cached';
    site.html(path, ARTICLE);
    const first = await fc.scrape(site.url(path), { formats: ['markdown'], maxAge: 600_000 });
    assert.equal(first.metadata?.cacheState, 'miss');
    const hits = site.hits(path);
    const second = await fc.scrape(site.url(path), { formats: ['markdown'], maxAge: 600_000 });
    assert.equal(second.metadata?.cacheState, 'hit');
    assert.equal(typeof second.metadata?.cachedAt, 'string');
    assert.equal(second.markdown, first.markdown);
    assert.equal(site.hits(path), hits, 'the target was not asked again');
    const fresh = await fc.scrape(site.url(path), { formats: ['markdown'], maxAge: 0 });
    assert.equal(fresh.metadata?.cacheState, 'miss');
    assert.equal(site.hits(path), hits + 1);
  });

  it('a cache hit leaves its own request record, with the charge it answered', async () => {
    const path = '/cached-record';
    site.html(path, ARTICLE);
    await fc.scrape(site.url(path), { formats: ['markdown'], maxAge: 600_000 });
    const hit = await fc.scrape(site.url(path), { formats: ['markdown'], maxAge: 600_000 });
    assert.equal(hit.metadata?.cacheState, 'hit');
    const id = String(hit.metadata?.scrapeId);
    const answer = await fetch(`${service.baseUrl}/api/requests/${id}?api_key=${service.apiKey}`);
    assert.equal(answer.status, 200, 'the hit has a record under its scrape id');
    const { record } = (await answer.json()) as {
      record: { source: string; status: string; creditsSpent: number; url: string };
    };
    assert.deepEqual(
      [record.source, record.status, record.creditsSpent, record.url],
      ['firecrawl', 'success', hit.metadata?.creditsUsed, site.url(path)],
    );
  });
});

describe('v1', () => {
  it('scrapeUrl answers the v1 shape', async () => {
    const answer = (await fc.v1?.scrapeUrl(site.url('/article'), {
      formats: ['markdown', 'screenshot@fullPage'],
    })) as { success: boolean; markdown?: string; screenshot?: string };
    assert.equal(answer.success, true);
    assert.match(answer.markdown ?? '', /Main heading/);
    assert.match(answer.screenshot ?? '', /\/v2\/screenshots\//);
  });
});

describe('errors as the SDK surfaces them', () => {
  const failure = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      return error as { status?: number; message: string; code?: string; details?: unknown };
    }
    assert.fail('expected a failure');
  };

  it('400 for a format that needs a model and for an unknown field', async () => {
    const model = await failure(() => fc.scrape(site.url('/article'), { formats: ['summary'] }));
    assert.equal(model.status, 400);
    assert.match(model.message, /The summary format needs a language model/);
    assert.match(model.message, /set OPENAI_BASE_URL and MODEL_NAME/, 'names the settings to add');
    const extract = await failure(() =>
      fc.startExtract({ urls: [site.url('/article')], prompt: 'x' }),
    );
    assert.equal(extract.status, 400);
    assert.match(
      extract.message,
      /^The extract endpoint needs a language model and none is configured: set OPENAI_BASE_URL/,
    );
    const unknown = await failure(() => fc.scrape(site.url('/article'), { bogus: 1 } as never));
    assert.equal(unknown.status, 400);
    assert.equal(
      unknown.message,
      'Unrecognized key in body -- please review the v2 API documentation for request body changes',
    );
    assert.match(JSON.stringify(unknown.details), /unrecognized_keys/);
  });

  it('401 without a valid key', async () => {
    const bad = new Firecrawl({ apiKey: 'pgk_not-a-key', apiUrl: service.baseUrl });
    const error = await failure(() => bad.scrape(site.url('/article')));
    assert.equal(error.status, 401);
  });

  it('402 when the credits run out', async () => {
    const poor = await service.addAccount(0);
    const client = new Firecrawl({ apiKey: poor.apiKey, apiUrl: service.baseUrl });
    const error = await failure(() => client.scrape(site.url('/article'), { maxAge: 0 }));
    assert.equal(error.status, 402);
  });

  it('403 for an address the guard refuses', async () => {
    const guarded = await startService({ allowPrivateNetworks: false });
    try {
      const client = new Firecrawl({ apiKey: guarded.apiKey, apiUrl: guarded.baseUrl });
      const error = await failure(() => client.scrape('http://127.0.0.1:9/x'));
      assert.equal(error.status, 403);
      assert.match(error.message, /URL is not allowed/);
    } finally {
      await guarded.close();
    }
  });

  it('408 when the budget runs out', async () => {
    const error = await failure(() =>
      fc.scrape(site.url('/slow?ms=5000'), { timeout: 1000, maxAge: 0 }),
    );
    assert.equal(error.status, 408);
    assert.match(error.message, /Timed out after 1000 ms/);
  });
});

describe('account endpoints', () => {
  it('credit usage and concurrency from the account', async () => {
    const usage = await fc.getCreditUsage();
    assert.equal(typeof usage.remainingCredits, 'number');
    assert.ok(usage.remainingCredits > 0 && usage.remainingCredits <= 10_000);
    const concurrency = await fc.getConcurrency();
    assert.equal(concurrency.maxConcurrency, 10);
    assert.equal(concurrency.concurrency, 0);
  });
});
