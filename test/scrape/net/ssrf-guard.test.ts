import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { isAppError } from '../../../src/errors.js';
import {
  AddressNotAllowedError,
  assertPublicUrl,
  checkUrlAllowed,
  createGuardedLookup,
  type LookupFn,
} from '../../../src/scrape/net/ssrf-guard.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';

/** A resolver from a fixed table, counting its calls (pure logic: no DNS traffic). */
function tableLookup(table: Record<string, string[]>): LookupFn & { calls: number } {
  const fn = async (host: string): Promise<LookupAddress[]> => {
    fn.calls += 1;
    const found = table[host];
    if (!found) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  fn.calls = 0;
  return fn;
}

const dns = tableLookup({
  'public.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'mixed.test': ['93.184.215.14', '10.0.0.5'],
  'metadata.test': ['169.254.169.254'],
  'v6local.test': ['::1'],
});

let site: FixtureSite;
before(async () => {
  site = await startFixtureSite();
});
after(() => site.close());

async function rejectsWith(promise: Promise<unknown>, code: string, message: string) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(isAppError(error));
    assert.equal(error.code, code);
    assert.equal(error.message, message);
    return true;
  });
}

test('a host whose addresses are all public is allowed', async () => {
  await assertPublicUrl('https://public.test/a', { allowPrivate: false, lookup: dns });
  assert.deepEqual(
    await checkUrlAllowed('http://public.test/', { allowPrivate: false, lookup: dns }),
    {
      allowed: true,
    },
  );
});

test('a host with one private address among public ones is refused', async () => {
  await rejectsWith(
    assertPublicUrl('http://mixed.test/', { allowPrivate: false, lookup: dns }),
    'URL_NOT_ALLOWED',
    'URL is not allowed: mixed.test resolves to a non-public address',
  );
});

test('IP literals in any spelling are refused without a lookup', async () => {
  const before = dns.calls;
  for (const url of [
    'http://127.1/',
    'http://0x7f000001/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::1]:8080/',
  ]) {
    await assert.rejects(assertPublicUrl(url, { allowPrivate: false, lookup: dns }), /non-public/);
  }
  const check = await checkUrlAllowed('http://169.254.169.254/', {
    allowPrivate: false,
    lookup: dns,
  });
  assert.deepEqual(check, { allowed: false, host: '169.254.169.254', reason: 'non-public' });
  assert.equal(dns.calls, before);
});

test('a name that does not resolve is a fetch failure, or unresolved for the browser', async () => {
  await rejectsWith(
    assertPublicUrl('http://nowhere.test/', { allowPrivate: false, lookup: dns }),
    'FETCH_FAILED',
    'Failed to fetch the page: could not resolve nowhere.test',
  );
  assert.deepEqual(
    await checkUrlAllowed('http://nowhere.test/', { allowPrivate: false, lookup: dns }),
    {
      allowed: false,
      host: 'nowhere.test',
      reason: 'unresolved',
    },
  );
});

test('allowPrivate lifts the check', async () => {
  await assertPublicUrl('http://127.0.0.1/', { allowPrivate: true, lookup: dns });
  await assertPublicUrl('http://metadata.test/', { allowPrivate: true, lookup: dns });
});

test('the guarded lookup refuses a loopback name before any connection is made', async () => {
  site.resetCounters();
  const lookup = createGuardedLookup({ allowPrivate: false });
  const error = await new Promise<Error>((resolve, reject) => {
    const socket = connect({ host: 'localhost', port: site.port, lookup });
    socket.on('connect', () => reject(new Error('connected')));
    socket.on('error', resolve);
  });
  assert.ok(error instanceof AddressNotAllowedError);
  assert.equal(error.host, 'localhost');
  assert.equal(site.connections(), 0);
});

test('the guarded lookup connects when private networks are allowed', async () => {
  site.resetCounters();
  const lookup = createGuardedLookup({
    allowPrivate: true,
    lookup: tableLookup({ 'fixture.test': ['127.0.0.1'] }),
  });
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host: 'fixture.test', port: site.port, lookup });
    socket.on('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.on('error', reject);
  });
  assert.equal(site.connections(), 1);
});

test('the guarded lookup answers in both single and all-addresses form', async () => {
  const lookup = createGuardedLookup({ allowPrivate: false, lookup: dns });
  const single = await new Promise<[string | LookupAddress[], number | undefined]>(
    (resolve, reject) =>
      lookup('public.test', { family: 6 }, (e, a, f) => (e ? reject(e) : resolve([a, f]))),
  );
  assert.deepEqual(single, ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', 6]);
  const all = await new Promise<string | LookupAddress[]>((resolve, reject) =>
    lookup('public.test', { all: true }, (e, a) => (e ? reject(e) : resolve(a))),
  );
  assert.equal((all as LookupAddress[]).length, 2);
  const refused = await new Promise<Error | null>((resolve) =>
    lookup('v6local.test', {}, (e) => resolve(e)),
  );
  assert.ok(refused instanceof AddressNotAllowedError);
});
