/**
 * Kept results written behind the answer (issue 26), on both engines: read at once from the
 * queue, then stored compressed, many in one write; a full queue or a failed write loses only
 * results, never blocks or throws at the caller.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  DummyDriver,
  Kysely,
  type KyselyPlugin,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely';
import type { Store } from '../../src/store/db.js';
import { newId } from '../../src/store/ids.js';
import { KeptResults } from '../../src/store/kept-results.js';
import type { Database } from '../../src/store/schema.js';
import { pgSkipReason } from '../helpers/postgres.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';

/** 100 KB of HTML that compresses as pages do (repeated markup, varying text). */
function page(seed: number): Buffer {
  const rows = Array.from(
    { length: 2000 },
    (_, i) => `<li class="item"><a href="/p/${seed}-${i}">Item ${i * seed}</a></li>`,
  );
  return Buffer.from(`<html><body><ul>${rows.join('')}</ul></body></html>`).subarray(0, 100_000);
}

/** For stores that only count writes: compiles the insert; a read fails (no database). */
class NoDatabase extends DummyDriver {
  override acquireConnection(): never {
    throw new Error('no database');
  }
}
const compileOnly = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new NoDatabase(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`kept results behind the answer (${engine})`, {
    skip: engine === 'postgres' && pgSkipReason,
  }, () => {
    let harness: TestStore | null = null;
    after(() => harness?.close());

    test('a result reads back at once from the queue, then from its compressed row', async () => {
      harness ??= await openTestStore(engine);
      const { store } = harness;
      const kept = new KeptResults(store);
      const requestId = newId();
      const body = page(1);
      kept.keep({ requestId, accountId: 'acc-a', contentType: 'text/html', body });
      assert.deepEqual((await kept.read('acc-a', requestId))?.body, body, 'read from the queue');
      assert.equal(await kept.read('acc-b', requestId), null, 'only by its account');
      await kept.flush();
      const { rows } = await sql<{ size: number; stored: number; encoding: string }>`
        select size, length(body) as stored, encoding from request_results
        where request_id = ${requestId}`.execute(store.db);
      assert.equal(rows[0]?.encoding, 'br');
      assert.equal(Number(rows[0]?.size), body.length, 'size is the result as answered');
      assert.ok(Number(rows[0]?.stored) < body.length / 4, `${rows[0]?.stored} bytes stored`);
      const read = await new KeptResults(store).read('acc-a', requestId);
      assert.ok(read?.body.equals(body), 'the row decodes to the result');
      assert.deepEqual(await new KeptResults(store).info('acc-a', requestId), {
        contentType: 'text/html',
        size: body.length,
      });
    });

    test('results kept in one turn share one write', async () => {
      harness ??= await openTestStore(engine);
      let writes = 0;
      const real = harness.store;
      const store: Pick<Store, 'db' | 'runRelaxed'> = {
        db: real.db,
        runRelaxed: (query) => {
          writes++;
          return real.runRelaxed(query);
        },
      };
      const kept = new KeptResults(store);
      const ids = Array.from({ length: 40 }, () => newId());
      for (const [i, requestId] of ids.entries()) {
        kept.keep({ requestId, accountId: 'acc-c', contentType: 'text/html', body: page(i + 2) });
      }
      await kept.flush();
      assert.equal(writes, 1);
      for (const requestId of ids) assert.ok(await kept.info('acc-c', requestId));
    });

    test('a batch of kept results of a size written before compiles no SQL', async () => {
      harness ??= await openTestStore(engine);
      const real = harness.store;
      let compiled = 0;
      const counter: KyselyPlugin = {
        transformQuery: ({ node }) => {
          compiled++;
          return node;
        },
        transformResult: async ({ result }) => result,
      };
      const store: Pick<Store, 'db' | 'runRelaxed'> = {
        db: real.db.withPlugin(counter),
        runRelaxed: (query) => real.runRelaxed(query),
      };
      const kept = new KeptResults(store);
      const compiledPerBatch: number[] = [];
      for (const round of [1, 2]) {
        const before = compiled;
        const ids = Array.from({ length: 3 }, () => newId());
        for (const [i, requestId] of ids.entries()) {
          kept.keep({ requestId, accountId: 'acc-d', contentType: 'text/html', body: page(i) });
        }
        await kept.flush();
        compiledPerBatch.push(compiled - before);
        for (const requestId of ids)
          assert.ok(await kept.info('acc-d', requestId), `round ${round}`);
      }
      assert.equal(compiledPerBatch[1], 0, `compiled per batch: ${compiledPerBatch.join(', ')}`);
    });
  });
}

test('results kept a few turns apart, as scrapes one at a time settle, share one write', async () => {
  let writes = 0;
  const store = {
    db: compileOnly,
    runRelaxed: async () => {
      writes++;
      return [];
    },
  } as unknown as Pick<Store, 'db' | 'runRelaxed'>;
  const kept = new KeptResults(store);
  for (let i = 1; i <= 3; i++) {
    kept.keep({ requestId: `t${i}`, accountId: 'a', contentType: 'text/html', body: page(i) });
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
  }
  await kept.flush();
  assert.equal(writes, 1);
});

test('past its byte bound the queue keeps nothing more until written', async () => {
  const waiting: (() => void)[] = [];
  const store = {
    db: compileOnly,
    runRelaxed: () => new Promise<never[]>((resolve) => waiting.push(() => resolve([]))),
  } as unknown as Pick<Store, 'db' | 'runRelaxed'>;
  const kept = new KeptResults(store, { maxPendingBytes: 250_000 });
  for (let i = 0; i < 4; i++) {
    kept.keep({ requestId: `r${i}`, accountId: 'a', contentType: 'text/html', body: page(i + 1) });
  }
  assert.equal(kept.dropped, 2, 'two 100 KB results fit in 250 KB');
  assert.ok(await kept.info('a', 'r1'));
  assert.equal(await kept.info('a', 'r2').catch(() => 'read the database'), 'read the database');
  while (waiting.length === 0) await new Promise((resolve) => setImmediate(resolve));
  waiting.shift()?.();
  await kept.flush();
  kept.keep({ requestId: 'r4', accountId: 'a', contentType: 'text/html', body: page(4) });
  assert.equal(kept.dropped, 2, 'room again once written');
  while (waiting.length === 0) await new Promise((resolve) => setImmediate(resolve));
  waiting.shift()?.();
  await kept.flush();
});

test('a failed write loses that batch only, and the next results are written', async () => {
  let failNext = true;
  const written: number[] = [];
  const store = {
    db: compileOnly,
    runRelaxed: async () => {
      if (failNext) {
        failNext = false;
        throw new Error('database unreachable');
      }
      written.push(1);
      return [];
    },
  } as unknown as Pick<Store, 'db' | 'runRelaxed'>;
  const kept = new KeptResults(store);
  kept.keep({ requestId: 'x', accountId: 'a', contentType: 'text/html', body: page(1) });
  await kept.flush();
  assert.equal(kept.dropped, 1);
  kept.keep({ requestId: 'y', accountId: 'a', contentType: 'text/html', body: page(2) });
  await kept.flush();
  assert.deepEqual(written, [1]);
  assert.equal(kept.dropped, 1);
});
