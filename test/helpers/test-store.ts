/**
 * A store on either engine for a test: the embedded one in a temporary folder, or a fresh
 * database on the test run's PostgreSQL; `close` removes what it made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/db.js';
import type { Dialect } from '../../src/store/dialect.js';
import { createTestDatabase } from './postgres.js';

export interface TestStore {
  store: Store;
  close(): Promise<void>;
}

export async function openTestStore(engine: Dialect): Promise<TestStore> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'pagegrab-store-'));
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
