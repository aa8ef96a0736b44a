/** Prepared queries bind the caller's parameters in the builder's order, on both dialects. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { preparedQuery } from '../../src/store/prepared-query.js';
import type { Database } from '../../src/store/schema.js';

const sqlite = new Kysely<Database>({
  dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }),
});
// Compiling never connects: the pool is never asked for a client.
const postgres = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });

const takeCredits = preparedQuery((db, accountId: string, amount: number) =>
  db
    .updateTable('accounts')
    .set((eb) => ({ credits: eb('credits', '-', amount) }))
    .where('id', '=', accountId)
    .where('credits', '>=', amount)
    .where('concurrency_limit', '>', 0)
    .returning('credits'),
);

test('parameters land where the builder put them, constants stay, per dialect', () => {
  const onSqlite = takeCredits(sqlite, 'acct', 15);
  assert.match(onSqlite.sql, /"credits" - \?/);
  assert.deepEqual(onSqlite.parameters, [15, 'acct', 15, 0]);
  const again = takeCredits(sqlite, 'other', 1);
  assert.equal(again.sql, onSqlite.sql);
  assert.deepEqual(again.parameters, [1, 'other', 1, 0]);
  const onPostgres = takeCredits(postgres, 'acct', 15);
  assert.match(onPostgres.sql, /"credits" - \$1/);
  assert.deepEqual(onPostgres.parameters, [15, 'acct', 15, 0]);
});

test('the query runs with the real parameters', async () => {
  await sql`create table accounts (id text, credits integer, concurrency_limit integer)`.execute(
    sqlite,
  );
  await sql`insert into accounts values ('acct', 20, 1)`.execute(sqlite);
  const first = await sqlite.executeQuery(takeCredits(sqlite, 'acct', 15));
  assert.deepEqual(first.rows, [{ credits: 5 }]);
  const second = await sqlite.executeQuery(takeCredits(sqlite, 'acct', 15));
  assert.deepEqual(second.rows, []);
});

test('a parameter written into the SQL text, or left unbound, is refused', () => {
  const inText = preparedQuery((db, table: string) =>
    db.selectFrom(sql.raw(table).as('t') as never).selectAll(),
  );
  assert.throws(() => inText(sqlite, 'accounts'), /reached the SQL text/);
  const unbound = preparedQuery((db, _unused: string) => db.selectFrom('accounts').selectAll());
  assert.throws(() => unbound(sqlite, 'x'), /must be bound/);
});
