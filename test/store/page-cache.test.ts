/**
 * The door's page cache (page_cache, migration 006) on both engines, through its prepared
 * queries: an entry reads back as written, only for its account and key and only when it
 * is no older than asked; storing the same key again replaces it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openStore, type Store } from '../../src/store/db.js';
import { readCachedPage, storeCachedPage } from '../../src/store/page-cache.js';
import { createTestDatabase } from '../helpers/postgres.js';

async function open(
  engine: 'sqlite' | 'postgres',
): Promise<{ store: Store; close(): Promise<void> }> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'pagegrab-cache-'));
    const store = await openStore({ databaseUrl: null, dataDir: dir });
    return {
      store,
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const database = await createTestDatabase();
  const store = await openStore({ databaseUrl: database.url, dataDir: '/nonexistent' });
  return {
    store,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`page cache (${engine})`, () => {
    let harness: Awaited<ReturnType<typeof open>> | null = null;
    after(() => harness?.close());

    test('reads back as written, by account, key and age; a second store replaces', async () => {
      harness ??= await open(engine);
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
