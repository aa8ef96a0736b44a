/**
 * Kept results (request_results, migration 011) on both engines: read back as written and
 * only by their own account; the purge drops results past the retention, then each account's
 * oldest until it fits its byte budget, and leaves the rest.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { idAtTime } from '../../src/store/request-log.js';
import {
  purgeRequestResults,
  readRequestResult,
  resultInfo,
  saveRequestResult,
} from '../../src/store/request-results.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';

/** An id of the given time, as the service's UUIDv7 ids sort. */
const idAt = (ms: number, n: number) => idAtTime(ms).replace(/0{12}$/, String(n).padStart(12, '0'));

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`kept results (${engine})`, () => {
    let harness: TestStore | null = null;
    after(() => harness?.close());

    test('a result reads back as written, only for its account', async () => {
      harness ??= await openTestStore(engine);
      const { db } = harness.store;
      const id = idAt(Date.now(), 1);
      const body = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255]);
      await saveRequestResult(db, id, 'acc-a', { contentType: 'image/png', body });
      const kept = await readRequestResult(db, 'acc-a', id);
      assert.equal(kept?.contentType, 'image/png');
      assert.deepEqual(kept?.body, body);
      assert.deepEqual(await resultInfo(db, 'acc-a', id), {
        contentType: 'image/png',
        size: 6,
        file: null,
      });
      assert.equal(await readRequestResult(db, 'acc-b', id), null);
    });

    test('the purge drops old results, then each account oldest first down to its budget', async () => {
      harness ??= await openTestStore(engine);
      const { db } = harness.store;
      const t = Date.now();
      const kb = Buffer.alloc(1000, 1);
      // acc-c: five results of 1000 bytes, the first one past the retention.
      const ids = [1, 2, 3, 4, 5].map((n) => idAt(t - 10_000 + n, n));
      for (const id of ids)
        await saveRequestResult(db, id, 'acc-c', { contentType: 'text/html', body: kb });
      await db
        .withTables<{ request_results: { request_id: string; created_at: number } }>()
        .updateTable('request_results')
        .set({ created_at: t - 100_000 })
        .where('request_id', '=', ids[0] as string)
        .execute();
      // acc-d: one small result, under any budget.
      const small = idAt(t, 9);
      await saveRequestResult(db, small, 'acc-d', { contentType: 'text/html', body: kb });
      const deleted = await purgeRequestResults(db, t - 50_000, 2500);
      // acc-c: the old one, then the two oldest of the four left (4000 → 2000 bytes).
      assert.equal(deleted, 3);
      const left = await Promise.all(ids.map((id) => resultInfo(db, 'acc-c', id)));
      assert.deepEqual(
        left.map((r) => r !== null),
        [false, false, false, true, true],
      );
      assert.notEqual(await resultInfo(db, 'acc-d', small), null);
    });
  });
}
