/**
 * The headline (issue 28, point 2): main-content Markdown starts with the page's headline as
 * `# ...`, once: the h1 that says what the title says, else the first h1 that is not the
 * site's logo, else og:title or <title> without the site's name. Real pages of three public
 * benchmarks (fixtures/headline/NOTICE), and a docs site of 30 pages from one template, whose
 * sidebar names every page, scraped through the service.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { htmlToMarkdown } from '../../src/markdown/index.js';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { startService, type TestService } from '../helpers/service.js';

const fixture = (name: string) =>
  gunzipSync(readFileSync(new URL(`fixtures/headline/${name}.html.gz`, import.meta.url))).toString(
    'utf8',
  );

/** Article pages with an h1 that is their headline: the Markdown's first line is that h1. */
const WITH_H1: Record<string, string> = {
  'articles-359fee22':
    "The First Map of Saturn's Moon Titan Just Revealed Some Tantalising Features",
  'articles-85439e26': '商品の改造が商標法違反に！？',
  'articles-4648a420': 'Introducing Junior Gaspard, New CEO at Experience',
  'readability-title-and-h1-discrepancy':
    'This is a long title with a colon: But the final text here is different',
  'readability-parsely-metadata': 'Test document title',
  'wcxb-4249': 'Which robotic lawnmower is suitable for which lawn size?',
  'wcxb-4500':
    'These Are The Best Noise Cancelling Headphones Money Can Buy, According To Consumer Reports',
};

const lines = (md: string, line: string) => md.split('\n').filter((l) => l === line).length;

describe('the headline of real article pages', () => {
  for (const [name, h1] of Object.entries(WITH_H1)) {
    it(`keeps the h1 of ${name} as the first line, once`, () => {
      const md = htmlToMarkdown(fixture(name), 'http://127.0.0.1/story');
      assert.equal(md.split('\n')[0], `# ${h1}`);
      assert.equal(lines(md, `# ${h1}`), 1);
      assert.ok(md.length > 500, 'the article follows the headline');
    });
  }

  it("takes the title's headline over an h1 that is the blog's name (wcxb-0437)", () => {
    const md = htmlToMarkdown(fixture('wcxb-0437'), 'http://127.0.0.1/story');
    assert.equal(md.split('\n')[0], '# A brief intro to git');
    assert.doesNotMatch(md, /^# Cory Dransfeldt/m);
  });

  it('takes the title when the page has no h1 (wcxb-0437 without its h1)', () => {
    const html = fixture('wcxb-0437').replace(/<h1[\s\S]*?<\/h1>/g, '');
    const md = htmlToMarkdown(html, 'http://127.0.0.1/story');
    assert.equal(md.split('\n')[0], '# A brief intro to git');
  });

  it('leaves a page whose text a script writes empty, without a headline (wcxb-4681)', () => {
    assert.equal(htmlToMarkdown(fixture('wcxb-4681'), 'http://127.0.0.1/story'), '');
  });
});

const PROSE = (n: number) =>
  `<p>Page ${n} explains how the widget is configured and what each of its settings does, with enough prose to read as documentation.</p>
  <p>Install the package, import the module, then call the function with your options; the defaults suit most uses of page ${n}.</p>`;

const SIDEBAR = Array.from(
  { length: 30 },
  (_, i) => `<li><a href="/docs/${i + 1}">Docs page ${i + 1}</a></li>`,
).join('');

/** One template for every page: the sidebar names each page with the text of its h1. */
const docsPage = (n: number) => `<!doctype html><html><head>
  <title>Docs page ${n} | Widget Docs</title><meta property="og:site_name" content="Widget Docs">
  </head><body>
  <header><a href="/">Widget Docs</a></header>
  <div class="layout"><div class="sidebar menu"><ul>${SIDEBAR}</ul></div>
  <main><div class="breadcrumbs"><a href="/docs">Docs</a> / <a href="/docs/${n}">Docs page ${n}</a></div>
  <h1>Docs page ${n}</h1>${PROSE(n)}
  <p><a href="/docs/${n + 1}">Docs page ${n + 1}</a></p></main></div>
  <footer><a href="/about">About</a></footer></body></html>`;

describe('the headline on 30 pages of one template, through the service', () => {
  let site: FixtureSite;
  let service: TestService;
  before(async () => {
    site = await startFixtureSite();
    for (let n = 1; n <= 30; n++) site.html(`/docs/${n}`, docsPage(n));
    service = await startService({ credits: 1000, concurrencyLimit: 30 });
  });
  after(async () => {
    await service.close();
    await site.close();
  });

  it('starts every page with its own `# Docs page N`, once', async () => {
    const firstLines = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const query = new URLSearchParams({
          api_key: service.apiKey,
          url: site.url(`/docs/${i + 1}`),
          markdown: 'true',
          render: 'false',
        });
        const answer = await fetch(`${service.baseUrl}/api/scraper?${query}`);
        assert.equal(answer.status, 200);
        const md = await answer.text();
        assert.equal(lines(md, `# Docs page ${i + 1}`), 1, md);
        assert.match(md, new RegExp(`Page ${i + 1} explains how the widget`));
        return md.split('\n')[0];
      }),
    );
    assert.deepEqual(
      firstLines,
      Array.from({ length: 30 }, (_, i) => `# Docs page ${i + 1}`),
    );
  });
});
