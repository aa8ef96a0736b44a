/**
 * GET /api/requests/{id}/result on the embedded engine, where a kept result is a file beside
 * the database (issue 26, store/result-files.ts): a scrape's result is written as a file under
 * DATA_DIR/results and read back through the API; a file gone from the disk answers the
 * documented 404, never a 500.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { startService, type TestService } from '../../helpers/service.js';

/** Every result file, as paths. */
function resultFiles(dataDir: string): string[] {
  const dir = join(dataDir, 'results');
  try {
    return readdirSync(dir).flatMap((folder) =>
      readdirSync(join(dir, folder)).map((name) => join(dir, folder, name)),
    );
  } catch {
    return [];
  }
}

describe('kept results as files through the API (sqlite)', () => {
  let service: TestService;
  let site: FixtureSite;
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-result-api-'));
  before(async () => {
    [service, site] = await Promise.all([
      startService({ env: { DATA_DIR: dataDir, RESULT_FILES: 'true' } }),
      startFixtureSite(),
    ]);
    site.html('/kept', '<html><body><p>a page kept as a file</p></body></html>');
  });
  after(async () => {
    await service.close();
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const result = (id: string) =>
    fetch(`${service.baseUrl}/api/requests/${id}/result?api_key=${service.apiKey}`);

  test('a scrape is kept as a file and read back; without its file it is not kept', async () => {
    const scrape = await fetch(
      `${service.baseUrl}/api/scraper?url=${encodeURIComponent(`${site.origin}/kept`)}`,
      { headers: { 'X-API-Key': service.apiKey } },
    );
    assert.equal(scrape.status, 200);
    const body = await scrape.text();
    const id = scrape.headers.get('x-request-id') as string;
    // Written behind the answer (the file, then its row): wait for the row, bounded.
    const named = async () =>
      (
        await sql<{ file: string | null }>`select file from request_results
          where request_id = ${id}`.execute(service.running.store.db)
      ).rows[0]?.file;
    const deadline = Date.now() + 10_000;
    while (!(await named()) && Date.now() < deadline)
      await new Promise((done) => setTimeout(done, 20));
    const files = resultFiles(dataDir);
    assert.equal(files.length, 1, 'one file under DATA_DIR/results');
    const kept = await result(id);
    assert.equal(kept.status, 200);
    assert.equal(await kept.text(), body);

    unlinkSync(files[0] as string);
    const missing = await result(id);
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), { error: 'No result is kept for this request' });
  });
});
