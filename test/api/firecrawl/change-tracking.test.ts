/**
 * The changeTracking format through Firecrawl's SDK: three scrapes (and a fourth once the
 * page is gone) of a loopback page that changes between them, each compared with the
 * account's previous scrape of the URL (its kept result).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Firecrawl from '@mendable/firecrawl-js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { startService, type TestService } from '../../helpers/service.js';

let site: FixtureSite;
let service: TestService;
let fc: Firecrawl;
let price = 'Price: 40 euros.';
let gone = false;

const PAGE = () => `<!doctype html><html><head><title>Kettle</title></head><body><main><article>
<h1>Copper kettle</h1><p>${price}</p><p>${'A hand-made kettle of hammered copper. '.repeat(8)}</p>
</article></main></body></html>`;

interface Tracking {
  changeStatus?: string;
  previousScrapeAt?: string | null;
  visibility?: string;
  tag?: string | null;
  diff?: { text: string };
}

before(async () => {
  site = await startFixtureSite();
  site.route('/kettle', (_req, res) => {
    res.writeHead(gone ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(gone ? '<html><body><h1>Not found</h1></body></html>' : PAGE());
  });
  service = await startService({ credits: 100 });
  fc = new Firecrawl({ apiKey: service.apiKey, apiUrl: service.baseUrl });
});
after(async () => {
  await service?.close();
  await site?.close();
});

const track = async (other?: Firecrawl) => {
  const doc = await (other ?? fc).scrape(site.url('/kettle'), {
    formats: [{ type: 'changeTracking', modes: ['git-diff'], tag: 'daily' }],
    maxAge: 0,
  });
  return { doc, tracking: (doc as { changeTracking?: Tracking }).changeTracking ?? {} };
};

describe('changeTracking', () => {
  it('new, then same, then changed with a diff of the Markdown, then removed', async () => {
    const first = await track();
    assert.equal(first.tracking.changeStatus, 'new');
    assert.equal(first.tracking.previousScrapeAt, null);
    assert.equal(first.tracking.tag, 'daily');
    assert.equal(first.tracking.diff, undefined);
    assert.equal(first.doc.markdown, undefined, 'markdown only when asked');

    const second = await track();
    assert.equal(second.tracking.changeStatus, 'same');
    assert.ok(second.tracking.previousScrapeAt, 'the first scrape is the previous one');
    assert.doesNotMatch(second.tracking.diff?.text ?? '', /^[-+]Price/m);

    price = 'Price: 35 euros.';
    const third = await track();
    assert.equal(third.tracking.changeStatus, 'changed');
    assert.equal(third.tracking.visibility, 'visible');
    const diff = third.tracking.diff?.text ?? '';
    assert.match(diff, /^-Price: 40 euros\.$/m);
    assert.match(diff, /^\+Price: 35 euros\.$/m);

    gone = true;
    const fourth = await track();
    assert.equal(fourth.tracking.changeStatus, 'removed');
    assert.equal(fourth.tracking.visibility, 'hidden');
  });

  it("another account's scrapes are not its previous ones", async () => {
    const other = await service.addAccount(10);
    const client = new Firecrawl({ apiKey: other.apiKey, apiUrl: service.baseUrl });
    const { tracking } = await track(client);
    assert.equal(tracking.changeStatus, 'new');
  });

  it('refuses the json mode without a model, naming the settings, before any scrape', async () => {
    const hits = site.hits('/kettle');
    await assert.rejects(
      fc.scrape(site.url('/kettle'), {
        formats: [{ type: 'changeTracking', modes: ['json'], prompt: 'The price' }],
      }),
      /The changeTracking json mode needs a language model and none is configured: set OPENAI_BASE_URL and MODEL_NAME/,
    );
    assert.equal(site.hits('/kettle'), hits);
  });
});
