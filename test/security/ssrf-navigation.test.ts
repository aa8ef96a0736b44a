/**
 * Issue 24's standing SSRF check for navigation: a rendered page whose script moves it to an
 * address the guard refuses never reaches that address. 127.0.0.2 plays the private host: the address policy takes only
 * 127.0.0.1 as public. What the scrape then answers is issue 24 point 6's; here, only that
 * nothing connected and the service answered without a 500.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { startService, type TestService } from '../helpers/service.js';

let service: TestService;
let site: FixtureSite;
let secret: Server;
let secretOrigin: string;
let connections = 0;

before(async () => {
  secret = createServer((_request, response) => response.end('secret'));
  secret.on('connection', () => connections++);
  await new Promise<void>((resolve) => secret.listen(0, '127.0.0.2', resolve));
  secretOrigin = `http://127.0.0.2:${(secret.address() as AddressInfo).port}`;
  site = await startFixtureSite();
  const page = (head: string, body = '') =>
    `<!doctype html><html><head><title>moving</title>${head}</head><body><p>Moving on.</p>${body}</body></html>`;
  site.html('/script', page(`<script>location.href = '${secretOrigin}/script';</script>`));
  service = await startService({
    allowPrivateNetworks: false,
    addressPolicy: (ip) => ip === '127.0.0.1',
  });
});
after(async () => {
  await service?.close();
  await site?.close();
  secret?.closeAllConnections();
  await new Promise<void>((resolve) => secret?.close(() => resolve()));
});

async function render(on: TestService, path: string): Promise<number> {
  const target = encodeURIComponent(site.url(path));
  const response = await fetch(
    `${on.baseUrl}/api/scraper?api_key=${on.apiKey}&render=true&wait_until=networkidle&url=${target}`,
  );
  await response.arrayBuffer();
  return response.status;
}

// Only a script that moves at once: a meta refresh, a submitted form or a delayed move were
// not followed within a render even to an allowed address (tried against the control below),
// so a test of their refusal could not fail.
const PATHS = ['/script'];

describe('a rendered page that navigates to a refused address', () => {
  for (const path of PATHS) {
    it(`never connects there: ${path}`, async () => {
      const status = await render(service, path);
      assert.ok(status !== 500, `status ${status}`);
      assert.ok(site.hits(path) >= 1, 'the page itself was loaded');
      assert.equal(connections, 0, 'nothing connected to the private host');
    });
  }
});

describe('the same pages where private addresses are allowed (the control)', () => {
  it('do navigate there, so the refusals above are the guard', async () => {
    const open = await startService({ allowPrivateNetworks: true });
    try {
      for (const path of PATHS) {
        const before = connections;
        await render(open, path);
        assert.ok(connections > before, `${path} reached the private host`);
      }
    } finally {
      await open.close();
    }
  });
});
