/**
 * The door's page cache (page_cache, migration 006) on both engines, through its prepared
 * queries: an entry reads back as written, only for its account and key and only when it
 * is no older than asked; storing the same key again replaces it.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { readCachedPage, storeCachedPage } from '../../src/store/page-cache.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`page cache (${engine})`, () => {
    let harness: TestStore | null = null;
    after(() => harness?.close());

    test('reads back as written, by account, key and age; a second store replaces', async () => {
      harness ??= await openTestStore(engine);
      const { db } = harness.store;
      const t = Date.now();
      const page = {
        document: '{"markdown":"# One","metadata":{"title":"One"}}',
        finalUrl: 'http://127.0.0.1:1/one',
        targetStatus: 200,
        used: '{"engine":"fetch"}',
        createdAt: t - 1000,
      };
      await storeCachedPage(db, 'acc-a', 'key-1', page);
      assert.deepEqual(await readCachedPage(db, 'acc-a', 'key-1', t - 5000), page);
      assert.equal(await readCachedPage(db, 'acc-a', 'key-1', t - 500), null, 'too old');
      assert.equal(await readCachedPage(db, 'acc-b', 'key-1', t - 5000), null, 'other account');
      assert.equal(await readCachedPage(db, 'acc-a', 'key-2', t - 5000), null, 'other key');

      const again = {
        ...page,
        document: '{"markdown":"# Two"}',
        targetStatus: 404,
        used: null,
        createdAt: t,
      };
      await storeCachedPage(db, 'acc-a', 'key-1', again);
      assert.deepEqual(await readCachedPage(db, 'acc-a', 'key-1', t - 500), again);
    });
  });
}
