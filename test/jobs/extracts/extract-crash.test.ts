/**
 * Extracts survive their node: `pagegrab serve` killed with SIGKILL while an extract reads its
 * (slow, loopback) pages, then started again on the same DATA_DIR, finishes the extract with
 * every page in its answer, without reading again the pages it had read, with each page
 * charged once in the ledger (a page's end and its charge are one commit) and its
 * creditsUsed equal to what the ledger charged.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openStore } from '../../../src/store/db.js';
import { startFixtureSite } from '../../helpers/fixture-site.js';
import { startModelServer } from '../../helpers/model-server.js';
import { until } from '../../helpers/until.js';
import { createAccountWithCli, type ServeProcess, spawnServe } from '../webhooks/serve-process.js';

const PAGES = 6;
const servers: ServeProcess[] = [];
after(async () => {
  for (const server of servers) if (server.child.exitCode === null) await server.kill();
});

test('an extract killed with kill -9 mid-way is finished after a restart, each page read and charged once', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-extract-crash-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const site = await startFixtureSite();
  t.after(() => site.close());
  for (let n = 0; n < PAGES; n++) {
    site.route(`/tea/${n}`, (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<html><head><title>Tea ${n}</title></head><body><main><h1>Tea ${n}</h1><p>Tea number ${n} is TEA-${n}, a long enough text to be the main content.</p></main></body></html>`,
        );
      }, 300);
    });
  }
  const model = await startModelServer({ model: 'test-model', apiKey: null });
  t.after(() => model.close());
  model.fallback(() => ({ content: '{"teas":["all"]}' }));
  const env = {
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_NETWORKS: 'true',
    JOB_LEASE_MS: '1000',
    JOB_POLL_MS: '50',
    LOG_LEVEL: 'warn',
    OPENAI_BASE_URL: model.baseUrl,
    MODEL_NAME: 'test-model',
    PRICE_MODEL_CALL: '4',
    EXTRACT_MAX_PAGES: String(PAGES),
  };
  const account = await createAccountWithCli(env, 1000);
  const urls = Array.from({ length: PAGES }, (_, i) => site.url(`/tea/${i}`));
  const hits = (i: number) => site.hits(`/tea/${i}`);
  const loads = () => urls.reduce((sum, _, i) => sum + hits(i), 0);

  const first = await spawnServe(env);
  servers.push(first);
  const started = await fetch(`${first.url}/v1/extract`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ urls, prompt: 'The teas' }),
  });
  const { id } = (await started.json()) as { id: string };
  assert.ok(id, 'the extract started');
  // Some pages read, one loading: then the process dies.
  await until(() => loads() >= 3, 60_000);
  await first.kill();
  const readBefore = urls.map((_, i) => hits(i));
  assert.ok(
    readBefore.some((n) => n === 0),
    'the kill left pages to read',
  );

  const second = await spawnServe(env);
  servers.push(second);
  let answer: Record<string, unknown> = {};
  await until(async () => {
    const response = await fetch(`${second.url}/v1/extract/${id}`, {
      headers: { authorization: `Bearer ${account.apiKey}` },
    });
    answer = (await response.json()) as Record<string, unknown>;
    return answer.status !== 'processing';
  }, 60_000);
  await second.stop();
  assert.equal(answer.status, 'completed', JSON.stringify(answer));
  assert.deepEqual(answer.data, { teas: ['all'] });
  // The model read every page, each once.
  const asked = model.requests.at(-1)?.messages.at(-1)?.content ?? '';
  for (let i = 0; i < PAGES; i++) {
    assert.equal(asked.split(`TEA-${i},`).length - 1, 1, `page ${i} once in the model's text`);
  }
  // Pages read before the kill were not read again; at most the one loading at the kill was.
  const reread = urls.filter(
    (_, i) => (readBefore[i] ?? 0) !== 0 && hits(i) > (readBefore[i] ?? 0),
  );
  assert.ok(reread.length <= 1, `read again: ${reread.join(' ')}`);

  const store = await openStore({ databaseUrl: null, dataDir });
  try {
    const settled = await store.db
      .selectFrom('ledger as l')
      .innerJoin('requests as r', 'r.id', 'l.request_id')
      .select(['r.url', 'r.output_type'])
      .where('l.account_id', '=', account.id)
      .where('l.kind', '=', 'settle')
      .execute();
    for (const url of urls) {
      const pages = settled.filter((row) => row.url === url && row.output_type === 'document');
      assert.equal(pages.length, 1, `${url} charged once`);
    }
    assert.equal(
      settled.filter((row) => row.output_type === 'extract').length,
      1,
      'one model call',
    );
    // What the ledger charged the account (settles; refunds and releases are not charges):
    // the pages read, at a fetch each, and the model call; the extract's count says the same.
    const charges = await store.db
      .selectFrom('ledger')
      .select(['kind', 'amount'])
      .where('account_id', '=', account.id)
      .where('kind', '=', 'settle')
      .execute();
    const charged = charges.reduce((sum, row) => sum + Number(row.amount), 0);
    assert.equal(charged, PAGES * 1 + 4, JSON.stringify(charges));
    assert.equal(answer.creditsUsed, charged, 'the extract counts what was charged');
  } finally {
    await store.close();
  }
});
