/**
 * One extractor for both engines (issue 14, point 4): through the real service, the same page
 * scraped with render=false (fetched HTML) and render=true (Chromium's rendered DOM) gives the
 * same main-content Markdown, except for what the page's script added, which only the
 * rendered DOM has; the Firecrawl door's onlyMainContent=false gives the whole page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { startService, type TestService } from '../helpers/service.js';

const PROSE = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Paragraph ${i} of the story, with commas, clauses, and enough words to read like prose.</p>`,
).join('');
const PAGE = `<!doctype html><html><head><title>Story</title></head><body>
  <nav><a href="/">NAVLINK home</a> <a href="/about">About us</a></nav>
  <article id="story"><h2>Part one</h2>${PROSE}
    <ul><li>first point</li><li>second point</li></ul></article>
  <footer><p>FOOTERTEXT copyright</p></footer>
  <script>
    const p = document.createElement('p');
    p.textContent = 'SCRIPTED paragraph, added by the page script, with commas, and enough words.';
    document.getElementById('story').appendChild(p);
  </script></body></html>`;

let site: FixtureSite;
let service: TestService;
before(async () => {
  site = await startFixtureSite();
  site.html('/story', PAGE);
  service = await startService({ credits: 1000 });
});
after(async () => {
  await service.close();
  await site.close();
});

async function markdown(render: boolean): Promise<string> {
  const query = new URLSearchParams({
    api_key: service.apiKey,
    url: site.url('/story'),
    markdown: 'true',
    render: String(render),
  });
  const answer = await fetch(`${service.baseUrl}/api/scraper?${query}`);
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get('content-type'), 'text/markdown; charset=utf-8');
  return answer.text();
}

describe('main-content Markdown with and without rendering', () => {
  it('is the same extraction on the fetched HTML and on the rendered DOM', async () => {
    const fetched = await markdown(false);
    const rendered = await markdown(true);
    assert.match(fetched, /^# Story\n\n## Part one\n\nParagraph 0 of the story/);
    assert.match(fetched, /^- first point\n- second point$/m);
    assert.doesNotMatch(fetched, /NAVLINK|FOOTERTEXT|SCRIPTED/);
    assert.match(rendered, /SCRIPTED paragraph, added by the page script/);
    const withoutScripted = rendered.replace(/\n\nSCRIPTED paragraph[^\n]*/, '');
    assert.equal(withoutScripted, fetched);
  });

  it('gives the whole page through the Firecrawl door with onlyMainContent false', async () => {
    const scrape = (onlyMainContent: boolean) =>
      fetch(`${service.baseUrl}/v1/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: site.url('/story'), formats: ['markdown'], onlyMainContent }),
      }).then(async (r) => {
        assert.equal(r.status, 200);
        return ((await r.json()) as { data: { markdown: string } }).data.markdown;
      });
    const whole = await scrape(false);
    const main = await scrape(true);
    assert.match(whole, /NAVLINK home/);
    assert.match(whole, /FOOTERTEXT copyright/);
    assert.match(whole, /Paragraph 5 of the story/);
    assert.doesNotMatch(main, /NAVLINK|FOOTERTEXT/);
    assert.match(main, /Paragraph 5 of the story/);
  });
});
