/**
 * Group commit: concurrent units share commits, each gets its own answer, and a failing
 * unit fails alone (its writes gone, its batch-mates committed).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { CommitGroup } from '../../src/store/commit-group.js';
import type { Database } from '../../src/store/schema.js';

async function setUp() {
  let commits = 0;
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }),
    log: (event) => {
      if (event.level === 'query' && /^commit$/i.test(event.query.sql)) commits++;
    },
  });
  await sql`create table t (n integer primary key)`.execute(db);
  return { db, group: new CommitGroup(db), commits: () => commits };
}

const insert = (n: number) => async (trx: Kysely<Database>) => {
  await sql`insert into t (n) values (${n})`.execute(trx);
  return n * 10;
};

async function stored(db: Kysely<Database>): Promise<number[]> {
  const { rows } = await sql<{ n: number }>`select n from t order by n`.execute(db);
  return rows.map((row) => row.n);
}

test('100 concurrent units commit in far fewer transactions, each with its own result', async () => {
  const { db, group, commits } = await setUp();
  const numbers = Array.from({ length: 100 }, (_, i) => i + 1);
  const results = await Promise.all(numbers.map((n) => group.run(insert(n))));
  assert.deepEqual(
    results,
    numbers.map((n) => n * 10),
  );
  assert.deepEqual(await stored(db), numbers);
  assert.ok(commits() < 10, `${commits()} commits for 100 units`);
});

test('a failing unit fails alone: its batch-mates commit, its writes are gone', async () => {
  const { db, group } = await setUp();
  const failing = async (trx: Kysely<Database>) => {
    await sql`insert into t (n) values (500)`.execute(trx);
    throw new Error('unit failed');
  };
  const first = group.run(insert(1)); // all five are submitted in one turn: one batch
  const answers = await Promise.allSettled([
    first,
    group.run(insert(2)),
    group.run(failing),
    group.run(insert(3)),
    group.run(insert(2)), // a duplicate key: fails on its own too
  ]);
  assert.deepEqual(
    answers.map((a) => a.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'rejected'],
  );
  assert.match(String((answers[2] as PromiseRejectedResult).reason), /unit failed/);
  assert.deepEqual(await stored(db), [1, 2, 3]);
});

test('a relaxed batch commits without fsync and leaves the connection durable; one durable unit makes it durable', async () => {
  const { db, group } = await setUp();
  const setting = async (trx: Kysely<Database>) =>
    (await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(trx)).rows[0]?.synchronous;
  // Alone, then batched: relaxed units see NORMAL (1), a batch with a durable unit FULL (2).
  assert.equal(await group.run(setting, { durable: false }), 1);
  const relaxed = await Promise.all([
    group.run(setting, { durable: false }),
    group.run(setting, { durable: false }),
  ]);
  assert.deepEqual(relaxed, [1, 1]);
  const mixed = await Promise.all([group.run(setting, { durable: false }), group.run(setting)]);
  assert.deepEqual(mixed, [2, 2]);
  assert.equal(await setting(db), 2);
});
