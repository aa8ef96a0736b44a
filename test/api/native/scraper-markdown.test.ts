/**
 * Markdown runs off the event loop with a cap (MARKDOWN_MAX_MS): a page too big to convert
 * in time is a 504 and not charged, while other requests on the node keep being answered.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { startService, type TestService } from '../../helpers/service.js';

let site: FixtureSite;
let service: TestService;

before(async () => {
  site = await startFixtureSite();
  const block = '<div><p>para <b>bold</b> and <a href="/x">link</a>, with, commas</p></div>';
  site.html('/huge', `<html><body><main>${block.repeat(200_000)}</main></body></html>`);
  service = await startService({ credits: 100, env: { MARKDOWN_MAX_MS: '2000' } });
});
after(async () => {
  await service.close();
  await site.close();
});

async function markdown(path: string) {
  const query = new URLSearchParams({ url: site.url(path), markdown: 'true' });
  const response = await fetch(`${service.baseUrl}/api/scraper?${query}`, {
    headers: { 'X-API-Key': service.apiKey },
  });
  return { response, text: await response.text() };
}

test('a page over the cap is 504 and free; a small page beside it is answered first', async () => {
  const finished: string[] = [];
  const huge = markdown('/huge').then((answer) => {
    finished.push('huge');
    return answer;
  });
  // Let the huge page reach its worker before the small one is asked for.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const small = await markdown('/page');
  finished.push('small');
  assert.equal(small.response.status, 200);
  assert.match(small.text, /Hello fixture/);
  const { response, text } = await huge;
  assert.equal(response.status, 504);
  assert.equal(text, '{"error":"Timed out after 2000 ms"}');
  assert.equal(response.headers.get('x-credits-used'), '0');
  // On the event loop, the huge page (many seconds uncapped) would hold the small one back.
  assert.deepEqual(finished, ['small', 'huge']);
});
