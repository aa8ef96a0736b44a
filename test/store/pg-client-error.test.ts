/**
 * A pooled PostgreSQL client whose backend the server ends while it is checked out (inside a
 * transaction: pg takes the pool's listener off it then) fails its transaction with a
 * database-unavailable error and leaves the process running (issue 24, point 11). Before,
 * the client emitted 'error' with nobody listening, which ended the process.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { isDatabaseUnavailable } from '../../src/store/database-errors.js';
import { openStore, type Store } from '../../src/store/db.js';
import { createTestDatabase, pgSkipReason, testPgAdminUrl } from '../helpers/postgres.js';
import { until } from '../helpers/until.js';

describe('a pg client ended by the server inside a transaction', { skip: pgSkipReason }, () => {
  let store: Store;
  let drop: () => Promise<void>;
  let admin: pg.Client;

  before(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    store = await openStore({ databaseUrl: database.url, dataDir: '', poolSize: 2 });
    admin = new pg.Client({ connectionString: testPgAdminUrl as string });
    await admin.connect();
  });

  after(async () => {
    await admin?.end();
    await store?.close();
    await drop?.();
  });

  it('fails the transaction as database-unavailable and keeps the process alive', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const outcome = await store.db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          const pid = rows[0]?.pid;
          await admin.query('select pg_terminate_backend($1)', [pid]);
          // The server's FATAL 57P01 reaches the client between two queries of the transaction.
          await until(async () => {
            const { rowCount } = await admin.query(
              'select 1 from pg_stat_activity where pid = $1',
              [pid],
            );
            return rowCount === 0;
          });
          await new Promise((resolve) => setTimeout(resolve, 100));
          await sql`select 1`.execute(trx);
          return 'committed';
        })
        .catch((error: unknown) => error);
      assert.notEqual(outcome, 'committed');
      assert.ok(isDatabaseUnavailable(outcome), `a connection-class failure: ${String(outcome)}`);
      assert.deepEqual(uncaught, [], 'nothing was thrown outside the transaction');
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
      assert.equal(rows[0]?.one, 1, 'the pool serves the next query on a new connection');
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
