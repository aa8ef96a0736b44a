/**
 * Group commit: concurrent units share commits, each gets its own answer, a failing unit
 * fails alone (its writes gone, its batch-mates committed), and durable units answer after a
 * sync of the log that runs while the next batches commit.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { CommitGroup } from '../../src/store/commit-group.js';
import type { Database } from '../../src/store/schema.js';

/** A log sync the test ends by hand: `syncs` are those asked for, `finish` ends the oldest. */
function manualFlush() {
  const waiting: (() => void)[] = [];
  let asked = 0;
  return {
    flushLog: () =>
      new Promise<void>((resolve) => {
        asked++;
        waiting.push(resolve);
      }),
    asked: () => asked,
    finish: () => waiting.shift()?.(),
  };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

async function setUp(flushLog: () => Promise<void> = async () => {}) {
  let commits = 0;
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }),
    log: (event) => {
      if (event.level === 'query' && /^commit$/i.test(event.query.sql)) commits++;
    },
  });
  await sql`create table t (n integer primary key)`.execute(db);
  return { db, group: new CommitGroup(db, flushLog), commits: () => commits };
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

test('every batch commits without fsync and leaves the connection durable for other writers', async () => {
  const { db, group } = await setUp();
  const setting = async (trx: Kysely<Database>) =>
    (await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(trx)).rows[0]?.synchronous;
  // Alone or batched, relaxed or durable: NORMAL (1) inside; FULL (2) outside.
  assert.equal(await group.run(setting, { durable: false }), 1);
  const mixed = await Promise.all([group.run(setting, { durable: false }), group.run(setting)]);
  assert.deepEqual(mixed, [1, 1]);
  assert.equal(await setting(db), 2);
});

test('a durable unit answers only after a log sync that began after its commit; the writer goes on meanwhile', async () => {
  const flush = manualFlush();
  const { db, group } = await setUp(flush.flushLog);
  const answered: number[] = [];
  const track = (p: Promise<number>) => p.then((n) => answered.push(n));
  const first = track(group.run(insert(1)));
  await turns();
  assert.deepEqual(await stored(db), [1], 'committed before its sync');
  assert.equal(flush.asked(), 1);
  assert.deepEqual(answered, [], 'no answer before the sync ends');
  // While that sync runs, more batches commit: a relaxed one answers at once, the durable
  // ones wait for one further sync, which they share.
  const relaxed = track(group.run(insert(2), { durable: false }));
  await turns();
  const second = track(group.run(insert(3)));
  await turns();
  const third = track(group.run(insert(4)));
  await turns();
  await relaxed;
  assert.deepEqual(await stored(db), [1, 2, 3, 4]);
  assert.deepEqual(answered, [20]);
  assert.equal(flush.asked(), 1, 'the next sync waits for the running one');
  flush.finish();
  await first;
  assert.deepEqual(
    answered,
    [20, 10],
    'a sync that began before units 3 and 4 does not answer them',
  );
  await turns();
  assert.equal(flush.asked(), 2, 'one sync for both');
  flush.finish();
  await Promise.all([second, third]);
  assert.deepEqual(answered.slice(2).sort(), [30, 40]);
});

test('a failed log sync fails the durable units that waited for it, not the relaxed ones', async () => {
  const { group } = await setUp(() => Promise.reject(new Error('EIO')));
  const answers = await Promise.allSettled([
    group.run(insert(1), { durable: false }),
    group.run(insert(2)),
  ]);
  assert.equal(answers[0].status, 'fulfilled');
  assert.match(String((answers[1] as PromiseRejectedResult).reason), /EIO/);
});
