import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ProxyAgent, request } from 'undici';
import { type FixtureSite, PLAIN_PAGE, startFixtureSite } from './fixture-site.js';
import { type ForwardProxy, startForwardProxy } from './forward-proxy.js';

let site: FixtureSite;
let proxy: ForwardProxy;
before(async () => {
  site = await startFixtureSite();
  proxy = await startForwardProxy({ auth: { username: 'u', password: 'p w' } });
});
after(async () => {
  await proxy.close();
  await site.close();
});

test('the fixture site serves the plain page and counts hits per path', async () => {
  const res = await request(site.url('/page?x=1'));
  assert.equal(res.statusCode, 200);
  assert.equal(await res.body.text(), PLAIN_PAGE);
  assert.equal(site.hits('/page'), 1);
  assert.ok(site.connections() >= 1);
});

test('custom routes and status pages answer as configured', async () => {
  site.html('/custom', '<p>custom</p>', 201);
  const custom = await request(site.url('/custom'));
  assert.equal(custom.statusCode, 201);
  assert.equal(await custom.body.text(), '<p>custom</p>');
  const missing = await request(site.url('/status/404'));
  assert.equal(missing.statusCode, 404);
  await missing.body.dump();
});

test('the forward proxy forwards with the right credentials and refuses without', async () => {
  const good = new ProxyAgent(proxy.url);
  const res = await request(site.url('/json'), { dispatcher: good });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(await res.body.json(), { ok: true, n: 1 });
  assert.equal(proxy.proxied(), 1);
  assert.equal(proxy.log()[0]?.port, site.port);
  await good.close();

  const bad = new ProxyAgent(proxy.url.replace('p%20w', 'nope'));
  await assert.rejects(request(site.url('/json'), { dispatcher: bad }));
  assert.equal(proxy.rejected(), 1);
  await bad.close();
});
