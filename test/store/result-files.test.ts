/**
 * Kept results as files beside the embedded database (issue 26, point 3): the row names a
 * compressed file by the result's hash, identical results share one file, the purge (retention
 * and the per-account budget) deletes the files no row names any more, and a file gone from
 * the disk reads as a result not kept.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { newId } from '../../src/store/ids.js';
import { KeptResults } from '../../src/store/kept-results.js';
import { ResultFiles } from '../../src/store/result-files.js';
import { openTestStore, type TestStore } from '../helpers/test-store.js';

/** A page of HTML that differs by seed. */
function page(seed: number): Buffer {
  const rows = Array.from({ length: 300 }, (_, i) => `<li><a href="/p/${seed}-${i}">${i}</a></li>`);
  return Buffer.from(`<html><body><ul>${rows.join('')}</ul></body></html>`);
}

/** Every file under the results folder, as folder/name. */
function filesIn(dir: string): string[] {
  let folders: string[];
  try {
    folders = readdirSync(dir);
  } catch {
    return [];
  }
  return folders.flatMap((folder) => readdirSync(join(dir, folder)).map((n) => `${folder}/${n}`));
}

describe('kept results as files (sqlite)', () => {
  let harness: TestStore;
  let dir: string;
  let kept: KeptResults;
  before(async () => {
    harness = await openTestStore('sqlite');
    dir = join(mkdtempSync(join(tmpdir(), 'pagegrab-result-files-')), 'results');
    // No grace: the purge's sweep may take any file no row names.
    kept = new KeptResults(harness.store, { files: new ResultFiles(dir, 0) });
  });
  after(async () => {
    await harness.close();
    rmSync(join(dir, '..'), { recursive: true, force: true });
  });
  const rowOf = async (requestId: string) =>
    (
      await sql<{ stored: number; file: string | null; size: number }>`
        select length(body) as stored, file, size from request_results
        where request_id = ${requestId}`.execute(harness.store.db)
    ).rows[0];

  test('a result is kept as a compressed file named by its hash, and its row only names it', async () => {
    const requestId = newId();
    const body = page(1);
    kept.keep({ requestId, accountId: 'acc-a', contentType: 'text/html', body });
    await kept.flush();
    const row = await rowOf(requestId);
    assert.equal(Number(row?.stored), 0, 'the row holds no bytes of the result');
    assert.equal(Number(row?.size), body.length);
    assert.equal(row?.file, ResultFiles.hashOf(body));
    assert.deepEqual(filesIn(dir), [`${row?.file?.slice(0, 2)}/${row?.file}.br`]);
    const read = await new KeptResults(harness.store, { files: new ResultFiles(dir) }).read(
      'acc-a',
      requestId,
    );
    assert.ok(read?.body.equals(body), 'the file decodes to the result');
    assert.equal(read?.contentType, 'text/html');
    assert.equal(await kept.read('acc-b', requestId), null, 'only by its account');
  });

  test('two identical results share one file', async () => {
    const body = page(2);
    const before = filesIn(dir).length;
    const first = newId();
    kept.keep({ requestId: first, accountId: 'acc-a', contentType: 'text/html', body });
    await kept.flush();
    const second = newId();
    kept.keep({ requestId: second, accountId: 'acc-b', contentType: 'text/html', body });
    await kept.flush();
    assert.equal(filesIn(dir).length, before + 1);
    assert.equal((await rowOf(first))?.file, (await rowOf(second))?.file);
    assert.ok((await kept.read('acc-a', first))?.body.equals(body));
    assert.ok((await kept.read('acc-b', second))?.body.equals(body));
  });

  test("the purge deletes the files of results past an account's budget, and keeps shared ones", async () => {
    const ids = [10, 11, 12].map(() => newId());
    for (const [i, requestId] of ids.entries())
      kept.keep({ requestId, accountId: 'acc-c', contentType: 'text/html', body: page(10 + i) });
    // The same bytes as the oldest, for another account: its file must outlive the purge.
    const shared = newId();
    kept.keep({ requestId: shared, accountId: 'acc-d', contentType: 'text/html', body: page(10) });
    await kept.flush();
    const hashes = [10, 11, 12].map((seed) => ResultFiles.hashOf(page(seed)));
    // acc-c may keep one result: its two oldest go.
    await kept.purge(0, page(12).length);
    const names = filesIn(dir).join(' ');
    assert.ok(names.includes(hashes[0] as string), 'the shared file stays');
    assert.ok(!names.includes(hashes[1] as string), "the second result's file is gone");
    assert.ok(names.includes(hashes[2] as string), 'the newest stays');
    assert.equal(await kept.read('acc-c', ids[0] as string), null);
    assert.ok((await kept.read('acc-c', ids[2] as string))?.body.equals(page(12)));
    assert.ok((await kept.read('acc-d', shared))?.body.equals(page(10)));
  });

  test('the retention purge deletes every file whose results are past it', async () => {
    const requestId = newId();
    kept.keep({ requestId, accountId: 'acc-e', contentType: 'text/html', body: page(20) });
    await kept.flush();
    assert.notEqual(filesIn(dir).length, 0);
    await kept.purge(Date.now() + 1, Number.MAX_SAFE_INTEGER);
    assert.deepEqual(filesIn(dir), []);
    assert.equal(await kept.read('acc-e', requestId), null);
  });

  test('a result whose file is gone reads as not kept', async () => {
    const requestId = newId();
    const body = page(30);
    kept.keep({ requestId, accountId: 'acc-f', contentType: 'text/html', body });
    await kept.flush();
    const hash = ResultFiles.hashOf(body);
    unlinkSync(join(dir, hash.slice(0, 2), `${hash}.br`));
    assert.equal(await kept.read('acc-f', requestId), null);
    assert.equal(await kept.info('acc-f', requestId), null);
  });
});
