/**
 * The account's keys and webhook secret through the API (/api/keys, /api/account/webhook-
 * secret), on both engines: a second key works at once, a rotated or revoked key stops at
 * once, the last key stays, and the secret revealed is the one deliveries are signed with.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { webhookSecretOf } from '../../../src/accounts/account-store.js';
import { startService, type TestService } from '../../helpers/service.js';
import { until } from '../../helpers/until.js';
import { type Call, workflowClient } from '../../helpers/workflow-http.js';

interface Key {
  id: string;
  prefix: string | null;
  name: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  current: boolean;
}
interface NewKey {
  id: string;
  prefix: string;
  name: string | null;
  key: string;
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`keys and the webhook secret (${engine})`, () => {
    let service: TestService;
    let call: Call;
    let startedAt: number;

    before(async () => {
      startedAt = Date.now();
      service = await startService({ postgres: engine === 'postgres' });
      call = workflowClient(service.baseUrl, service.apiKey);
    });
    after(() => service.close());

    const accountStatus = async (key: string) =>
      (await fetch(`${service.baseUrl}/api/account`, { headers: { 'X-API-Key': key } })).status;

    test('lists the key with its prefix and creation time, marked as the current one', async () => {
      const answer = await call<Key[]>('GET', '/api/keys');
      assert.equal(answer.status, 200);
      assert.equal(answer.body.length, 1);
      const [key] = answer.body;
      assert.equal(key?.prefix, service.apiKey.slice(0, 10));
      assert.equal(key?.current, true);
      // Made by this service's first start: between the set-up and this answer.
      const createdAt = Date.parse(key?.createdAt ?? '');
      assert.ok(createdAt >= startedAt && createdAt <= Date.now(), key?.createdAt);
      assert.ok(!JSON.stringify(answer.body).includes(service.apiKey));
    });

    test('a second key works at once; rotating it stops the old one and answers the new', async () => {
      const created = await call<NewKey>('POST', '/api/keys');
      assert.equal(created.status, 200);
      assert.equal(created.body.prefix, created.body.key.slice(0, 10));
      assert.equal(await accountStatus(created.body.key), 200);
      const listed = await call<Key[]>('GET', '/api/keys');
      assert.deepEqual(
        listed.body.map((k) => [k.id === created.body.id, k.current]),
        [
          [false, true],
          [true, false],
        ],
      );
      const rotated = await call<NewKey>('POST', `/api/keys/${created.body.id}/rotate`);
      assert.equal(rotated.status, 200);
      assert.notEqual(rotated.body.key, created.body.key);
      assert.equal(await accountStatus(created.body.key), 403);
      assert.equal(await accountStatus(rotated.body.key), 200);
      const revoked = await call('DELETE', `/api/keys/${rotated.body.id}`);
      assert.deepEqual(
        [revoked.status, revoked.body],
        [200, { id: rotated.body.id, revoked: true }],
      );
      assert.equal(await accountStatus(rotated.body.key), 403);
      assert.equal(await accountStatus(service.apiKey), 200);
    });

    test('the last key cannot be revoked, unknown and foreign keys are not found', async () => {
      const [mine] = (await call<Key[]>('GET', '/api/keys')).body;
      const last = await call('DELETE', `/api/keys/${mine?.id}`);
      assert.deepEqual(
        [last.status, last.body],
        [400, { error: "The account's last active key cannot be revoked; rotate it instead" }],
      );
      const unknown = await call('POST', '/api/keys/0123456789abcdef/rotate');
      assert.deepEqual([unknown.status, unknown.body], [404, { error: 'API key not found!' }]);
      const other = await service.addAccount(1);
      const foreign = await workflowClient(service.baseUrl, other.apiKey)(
        'DELETE',
        `/api/keys/${mine?.id}`,
      );
      assert.equal(foreign.status, 404);
      const anonymous = await call('GET', '/api/keys', { key: null });
      assert.deepEqual(
        [anonymous.status, anonymous.body],
        [403, { error: 'API Key is required!' }],
      );
      const wrong = await call('POST', '/api/keys', { key: 'pgk_nope' });
      assert.deepEqual([wrong.status, wrong.body], [403, { error: 'Invalid API key!' }]);
    });

    test('at most 10 active keys', async () => {
      const made: string[] = [];
      for (let i = 0; i < 9; i++) {
        const answer = await call<NewKey>('POST', '/api/keys', { body: {} });
        assert.equal(answer.status, 200);
        made.push(answer.body.id);
      }
      const over = await call('POST', '/api/keys');
      assert.deepEqual(
        [over.status, over.body],
        [400, { error: 'An account holds at most 10 active keys' }],
      );
      for (const id of made) assert.equal((await call('DELETE', `/api/keys/${id}`)).status, 200);
    });

    test('a key is named at its creation, renamed, and keeps its name when rotated', async () => {
      const created = await call<NewKey>('POST', '/api/keys', { body: { name: '  CI runner ' } });
      assert.equal(created.status, 200);
      assert.equal(created.body.name, 'CI runner');
      const named = async (id: string) =>
        (await call<Key[]>('GET', '/api/keys')).body.find((k) => k.id === id)?.name;
      assert.equal(await named(created.body.id), 'CI runner');
      const renamed = await call<Key>('PATCH', `/api/keys/${created.body.id}`, {
        body: { name: 'Nightly export' },
      });
      assert.deepEqual([renamed.status, renamed.body.name], [200, 'Nightly export']);
      const rotated = await call<NewKey>('POST', `/api/keys/${created.body.id}/rotate`);
      assert.equal(rotated.body.name, 'Nightly export');
      assert.equal(await named(rotated.body.id), 'Nightly export');
      const cleared = await call<Key>('PATCH', `/api/keys/${rotated.body.id}`, {
        body: { name: null },
      });
      assert.equal(cleared.body.name, null);
      const unnamed = await call<NewKey>('POST', '/api/keys');
      assert.equal(unnamed.body.name, null);
      for (const id of [rotated.body.id, unnamed.body.id]) {
        assert.equal((await call('DELETE', `/api/keys/${id}`)).status, 200);
      }
    });

    test('a bad name is a 400 with its reason, and nothing is made', async () => {
      const before = (await call<Key[]>('GET', '/api/keys')).body.length;
      const bad: [string, string, unknown, string][] = [
        ['POST', '/api/keys', { name: '' }, 'Name must be a string of 1 to 100 characters'],
        [
          'POST',
          '/api/keys',
          { name: 'x'.repeat(101) },
          'Name must be a string of 1 to 100 characters',
        ],
        ['POST', '/api/keys', { name: 7 }, 'Name must be a string of 1 to 100 characters'],
        ['POST', '/api/keys', { label: 'x' }, 'Only name can be set on a key'],
        ['POST', '/api/keys', ['x'], 'Request body must be a JSON object'],
      ];
      const [mine] = (await call<Key[]>('GET', '/api/keys')).body;
      bad.push(['PATCH', `/api/keys/${mine?.id}`, {}, 'Name is required!']);
      for (const [method, path, body, error] of bad) {
        const answer = await call(method, path, { body });
        assert.deepEqual([answer.status, answer.body], [400, { error }], JSON.stringify(body));
      }
      const unknown = await call('PATCH', '/api/keys/0123456789abcdef', { body: { name: 'x' } });
      assert.deepEqual([unknown.status, unknown.body], [404, { error: 'API key not found!' }]);
      assert.equal((await call<Key[]>('GET', '/api/keys')).body.length, before);
    });

    test('a key is listed with the time it was last used, written once however many requests', async () => {
      const created = await call<NewKey>('POST', '/api/keys');
      const lastUsed = async () =>
        (await call<Key[]>('GET', '/api/keys')).body.find((k) => k.id === created.body.id)
          ?.lastUsedAt;
      assert.equal(await lastUsed(), null);
      const before = Date.now();
      assert.equal(await accountStatus(created.body.key), 200);
      // Written after the answer, with whatever else commits next.
      await until(async () => (await lastUsed()) !== null, 10_000);
      const first = Date.parse((await lastUsed()) ?? '');
      assert.ok(first >= before - 1000 && first <= Date.now(), String(first));
      const { store } = service.running;
      const version = store.dataVersion();
      for (let i = 0; i < 20; i++) assert.equal(await accountStatus(created.body.key), 200);
      // On SQLite a write from any connection changes data_version: the reads above made none.
      if (version !== null) assert.equal(store.dataVersion(), version);
      assert.equal(Date.parse((await lastUsed()) ?? ''), first);
      assert.equal((await call('DELETE', `/api/keys/${created.body.id}`)).status, 200);
    });

    test('reveals the webhook secret deliveries are signed with, and rotates it', async () => {
      const shown = await call<{ webhookSecret: string }>('GET', '/api/account/webhook-secret');
      assert.deepEqual(shown.body, { webhookSecret: service.webhookSecret });
      const rotated = await call<{ webhookSecret: string }>(
        'POST',
        '/api/account/webhook-secret/rotate',
      );
      assert.equal(rotated.status, 200);
      assert.match(rotated.body.webhookSecret, /^whsec_/);
      assert.notEqual(rotated.body.webhookSecret, service.webhookSecret);
      assert.equal(
        await webhookSecretOf(service.running.store.db, service.accountId),
        rotated.body.webhookSecret,
      );
    });
  });
}
