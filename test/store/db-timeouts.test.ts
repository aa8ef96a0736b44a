/**
 * PostgreSQL waits are bounded (issue 24, point 12): a connect to a server that never answers
 * fails within PG_CONNECT_TIMEOUT_MS, a slow statement is cancelled by the server at
 * PG_STATEMENT_TIMEOUT_MS, and a query on a server gone silent fails 2 s after that.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { isDatabaseUnavailable } from '../../src/store/database-errors.js';
import { DatabaseUnavailableError, openStore, type Store } from '../../src/store/db.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';
import {
  type SilenceableProxy,
  type SilentServer,
  startSilenceableProxy,
  startSilentServer,
} from '../helpers/silent-database.js';

let silent: SilentServer;

before(async () => {
  silent = await startSilentServer();
});
after(async () => {
  await silent.close();
});

describe('PostgreSQL bounds', () => {
  it('refuses to open a database that accepts connections and never answers', async () => {
    await assert.rejects(
      openStore({
        databaseUrl: `postgres://pagegrab:pw@127.0.0.1:${silent.port}/pagegrab`,
        dataDir: '/nonexistent',
        connectTimeoutMs: 200,
      }),
      (error: unknown) => {
        assert.ok(error instanceof DatabaseUnavailableError);
        assert.equal(
          error.message,
          `cannot use the database at 127.0.0.1:${silent.port}/pagegrab: ` +
            'no answer within PG_CONNECT_TIMEOUT_MS (200 ms)',
        );
        return true;
      },
    );
  });

  describe('on a running store', { skip: pgSkipReason }, () => {
    let proxy: SilenceableProxy;
    let store: Store;
    let drop: () => Promise<void>;

    before(async () => {
      const database = await createTestDatabase();
      drop = database.drop;
      proxy = await startSilenceableProxy(Number(new URL(database.url).port));
      const proxied = new URL(database.url);
      proxied.port = String(proxy.port);
      store = await openStore({
        databaseUrl: proxied.toString(),
        dataDir: '/nonexistent',
        connectTimeoutMs: 5_000,
        statementTimeoutMs: 300,
      });
    });
    after(async () => {
      await proxy.close();
      await store.close().catch(() => {});
      await drop();
    });

    it('has a statement longer than PG_STATEMENT_TIMEOUT_MS cancelled by the server', async () => {
      await assert.rejects(sql`select pg_sleep(30)`.execute(store.db), { code: '57014' });
      // The connection stays usable.
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
      assert.deepEqual(rows, [{ one: 1 }]);
    });

    it('fails a query once the server has been silent past the bound', async () => {
      proxy.silence();
      await assert.rejects(sql`select 1`.execute(store.db), /Query read timeout/);
    });

    it('fails queries that need a new connection while the server is silent as unavailable', async () => {
      proxy.silence();
      // more at once than the pool holds connections: some open new ones, which the client's
      // connect bound ends ("timeout expired"); every failure must read as the outage (a 503)
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, () => sql`select 1`.execute(store.db)),
      );
      for (const result of results) {
        assert.equal(result.status, 'rejected');
        if (result.status === 'rejected') {
          assert.ok(isDatabaseUnavailable(result.reason), String(result.reason));
        }
      }
    });
  });
});
