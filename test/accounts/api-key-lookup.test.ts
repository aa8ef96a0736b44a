/**
 * The per-process key cache never serves what the database no longer says: a charge, a
 * credit or a key rotation committed on the writer connection (or by another process, see
 * test/cli/accounts-command.test.ts) shows in the next turn of the event loop.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createAccount, rotateApiKey } from '../../src/accounts/account-store.js';
import { ApiKeyLookup } from '../../src/accounts/api-key-lookup.js';
import { openStore, type Store } from '../../src/store/db.js';

let dir: string;
let store: Store;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagegrab-keys-'));
  store = await openStore({ databaseUrl: null, dataDir: dir });
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a balance changed on the writer connection shows in the next turn', async () => {
  const created = await createAccount(store.db, { name: 'a', credits: 10, concurrencyLimit: 5 });
  const keys = new ApiKeyLookup(store);
  assert.equal((await keys.find(created.apiKey))?.credits, 10);
  assert.equal((await keys.find(created.apiKey))?.credits, 10);
  await store.db
    .updateTable('accounts')
    .set({ credits: 3 })
    .where('id', '=', created.account.id)
    .execute();
  await nextTurn();
  assert.equal((await keys.find(created.apiKey))?.credits, 3);
});

test('a rotated key stops in the next turn; the new one works', async () => {
  const created = await createAccount(store.db, { name: 'b', credits: 10, concurrencyLimit: 5 });
  const keys = new ApiKeyLookup(store);
  assert.ok(await keys.find(created.apiKey));
  const fresh = await rotateApiKey(store.db, created.account.id);
  await nextTurn();
  assert.equal(await keys.find(created.apiKey), null);
  assert.equal((await keys.find(fresh))?.id, created.account.id);
});

test('an unknown key is never cached as an account, and a returned account is a copy', async () => {
  const created = await createAccount(store.db, { name: 'c', credits: 10, concurrencyLimit: 5 });
  const keys = new ApiKeyLookup(store);
  assert.equal(await keys.find('pgk_unknown'), null);
  const first = await keys.find(created.apiKey);
  assert.ok(first);
  first.credits = 999;
  assert.equal((await keys.find(created.apiKey))?.credits, 10);
});
