/**
 * Block detection through the whole service, on both stores: a target that answers some
 * proxies' exit addresses with a Cloudflare challenge. A blocked answer is retried on the
 * pool's next proxy and the scrape is charged once; when every proxy is blocked the caller
 * gets TARGET_BLOCKED (502, not charged), never the block page as a 200; a session stays on
 * its proxy; the Firecrawl door's proxy "auto" goes on to a residential proxy, paid for when
 * it does (402 when the account cannot); /metrics
 * counts the blocks per proxy by a label without credentials.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ExitProxy, startExitProxy } from '../helpers/exit-proxy.js';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { pgSkipReason } from '../helpers/postgres.js';
import { startService, type TestService } from '../helpers/service.js';

const CHALLENGE = `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>
<div id="challenge-body-text">Checking if the site connection is secure</div>
<script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>`;
const PAGE = `<!doctype html><title>Catalogue</title><main><h1>Catalogue</h1>
<p>${'Every product we sell, with its price and its stock. '.repeat(10)}</p></main>`;

for (const postgres of [false, true]) {
  describe(`block detection and retry (${postgres ? 'PostgreSQL' : 'SQLite'})`, {
    skip: postgres ? pgSkipReason : false,
  }, () => {
    let site: FixtureSite;
    let service: TestService;
    let dir: string;
    const exits: ExitProxy[] = [];
    /** Exit addresses the target answers with its challenge. */
    const blocked = new Set<string>();
    /** The exit address of each request the target saw, in order. */
    const seen: string[] = [];

    before(async () => {
      site = await startFixtureSite();
      site.route('/catalogue', (req, res) => {
        const from = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
        seen.push(from);
        if (blocked.has(from)) {
          res.writeHead(403, { 'content-type': 'text/html', 'cf-mitigated': 'challenge' });
          return void res.end(CHALLENGE);
        }
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(PAGE);
      });
      for (const address of ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']) {
        exits.push(await startExitProxy(address));
      }
      dir = mkdtempSync(join(tmpdir(), 'pagegrab-blocks-'));
      const proxiesFile = join(dir, 'proxies.json');
      writeFileSync(
        proxiesFile,
        JSON.stringify([
          { url: exits[0]!.url.replace('//', '//user:secret-one@'), type: 'datacenter' },
          { url: exits[1]!.url, type: 'datacenter' },
          { url: exits[2]!.url, type: 'datacenter' },
          { url: exits[3]!.url, type: 'residential' },
        ]),
      );
      service = await startService({ postgres, env: { PROXIES_FILE: proxiesFile } });
    });

    after(async () => {
      await service?.close();
      await Promise.all(exits.map((exit) => exit.close()));
      await site?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const scrape = (params: Record<string, string>, apiKey = service.apiKey) => {
      const query = new URLSearchParams({
        api_key: apiKey,
        url: site.url('/catalogue'),
        ...params,
      });
      return fetch(`${service.baseUrl}/api/scraper?${query}`);
    };
    const balance = async () => {
      const answer = await fetch(`${service.baseUrl}/api/account?api_key=${service.apiKey}`);
      return ((await answer.json()) as { credits: number }).credits;
    };

    test('a blocked answer is retried on the next proxy; the page answers, charged once', async () => {
      blocked.clear();
      blocked.add('127.0.0.2').add('127.0.0.3');
      seen.length = 0;
      const before = await balance();
      const answer = await scrape({});
      assert.equal(answer.status, 200);
      assert.match(await answer.text(), /Every product we sell/);
      assert.equal(answer.headers.get('x-target-status'), '200');
      assert.equal(answer.headers.get('x-credits-used'), '1');
      assert.equal(await balance(), before - 1);
      assert.deepEqual(seen, ['127.0.0.2', '127.0.0.3', '127.0.0.4']);
    });

    test('every proxy blocked: TARGET_BLOCKED (502), nothing charged, no block page', async () => {
      blocked.clear();
      for (const address of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) blocked.add(address);
      seen.length = 0;
      const before = await balance();
      const answer = await scrape({});
      assert.equal(answer.status, 502);
      assert.deepEqual(await answer.json(), {
        error: 'The target blocked the request: cloudflare-challenge (3 attempts)',
      });
      assert.equal(await balance(), before);
      assert.equal(seen.length, 3, 'each proxy of the pool tried once');
      assert.deepEqual(new Set(seen), new Set(['127.0.0.2', '127.0.0.3', '127.0.0.4']));
    });

    test('a session stays on its proxy: a block is not retried elsewhere', async () => {
      blocked.clear();
      for (const address of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) blocked.add(address);
      seen.length = 0;
      const answer = await scrape({ session_id: 'stay' });
      assert.equal(answer.status, 502);
      assert.deepEqual(await answer.json(), {
        error: 'The target blocked the request: cloudflare-challenge (1 attempt)',
      });
      assert.equal(seen.length, 1);
    });

    test("Firecrawl sessionId: the door's session stays on its proxy too; a bad one is 400", async () => {
      blocked.clear();
      for (const address of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) blocked.add(address);
      seen.length = 0;
      const post = (body: object) =>
        fetch(`${service.baseUrl}/v2/scrape`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${service.apiKey}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ url: site.url('/catalogue'), maxAge: 0, ...body }),
        });
      const answer = await post({ proxy: 'basic', sessionId: 'fc-1' });
      assert.equal(answer.status, 500);
      const body = (await answer.json()) as { error: string; code: string };
      assert.equal(body.error, 'The target blocked the request: cloudflare-challenge (1 attempt)');
      assert.equal(body.code, 'SCRAPE_SITE_ERROR');
      assert.equal(seen.length, 1);
      assert.equal((await post({ sessionId: 'not a name' })).status, 400);
    });

    test('Firecrawl proxy "auto": the pool blocked, a residential proxy gets the page', async () => {
      blocked.clear();
      for (const address of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) blocked.add(address);
      seen.length = 0;
      const before = await balance();
      const answer = await fetch(`${service.baseUrl}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: site.url('/catalogue'), proxy: 'auto', maxAge: 0 }),
      });
      assert.equal(answer.status, 200);
      const body = (await answer.json()) as { data: { markdown: string } };
      assert.match(body.data.markdown, /Every product we sell/);
      // The datacenter pool in rotation order (wherever the rotation stands), then residential.
      assert.deepEqual(new Set(seen.slice(0, 3)), new Set(['127.0.0.2', '127.0.0.3', '127.0.0.4']));
      assert.deepEqual(seen.slice(3), ['127.0.0.5']);
      // Charged once, at the residential fetch's price (1 x 10).
      assert.equal(await balance(), before - 10);
    });

    test('Firecrawl proxy "auto": an account that cannot pay the residential proxy gets a 402 with the figures, not charged', async () => {
      blocked.clear();
      for (const address of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) blocked.add(address);
      seen.length = 0;
      // Enough for the pool's fetch (1), not for the residential one (1 x 10).
      const poor = await service.addAccount(5);
      const answer = await fetch(`${service.baseUrl}/v2/scrape`, {
        method: 'POST',
        headers: { authorization: `Bearer ${poor.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: site.url('/catalogue'), proxy: 'auto', maxAge: 0 }),
      });
      assert.equal(answer.status, 402);
      const body = (await answer.json()) as { error: string; code: string };
      assert.equal(
        body.error,
        'Insufficient credits to perform this request: it needs 10 credits and the account has 4.',
      );
      assert.equal(body.code, 'INSUFFICIENT_CREDITS');
      assert.equal(seen.length, 3, 'the pool tried, the residential proxy not');
      const account = await fetch(`${service.baseUrl}/api/account?api_key=${poor.apiKey}`);
      assert.equal(((await account.json()) as { credits: number }).credits, 5);
    });

    test('/metrics counts blocks per proxy, by a label without credentials', async () => {
      const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
      assert.doesNotMatch(text, /secret-one/);
      const port = new URL(exits[0]!.url).port;
      const blocks = new RegExp(
        `pagegrab_proxy_blocks_total\\{proxy="datacenter/any/127\\.0\\.0\\.1:${port}"\\} (\\d+)`,
      ).exec(text);
      assert.ok(
        blocks,
        text
          .split('\n')
          .filter((l) => l.includes('proxy'))
          .join('\n'),
      );
      assert.ok(Number(blocks[1]) >= 3);
      assert.match(text, /pagegrab_proxy_benched\{proxy="residential\/any\/127\.0\.0\.1:\d+"\} 0/);
    });
  });
}
