/**
 * A model call paid the way a scrape is, and the deferred settle an extract uses: the call's
 * charge and record commit with the extract's end, so a node that dies between the model's
 * answer and that commit leaves only a reservation (the reaper's), and the call asked again
 * after a takeover is the only one charged.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createAccount } from '../../src/accounts/account-store.js';
import { createChatModel } from '../../src/models/chat-model.js';
import { createModelCalls, type ModelCallContext } from '../../src/models/model-calls.js';
import { openStore, type Store } from '../../src/store/db.js';
import { type ModelServer, startModelServer } from '../helpers/model-server.js';

const PRICE = 4;
let store: Store;
let dir: string;
let server: ModelServer;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagegrab-model-calls-'));
  store = await openStore({ databaseUrl: null, dataDir: dir });
  server = await startModelServer({ model: 'test-model', apiKey: null });
  server.fallback(() => ({ content: 'A short summary.' }));
});
after(async () => {
  await server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function calls() {
  return createModelCalls(
    store,
    createChatModel({
      baseUrl: server.baseUrl,
      apiKey: null,
      name: 'test-model',
      contextChars: 10_000,
      timeoutMs: 10_000,
      callPrice: PRICE,
      extractMaxPages: 10,
    }),
  );
}

const ask = async (model: Parameters<Parameters<ReturnType<typeof calls>['run']>[1]>[0]) => {
  const answer = await model.chat([{ role: 'user', content: 'Summarise.' }], null);
  return { value: answer.content, promptTokens: 3, completionTokens: 4 };
};

async function account(credits: number) {
  const { account } = await createAccount(store.db, {
    name: `a-${Math.random()}`,
    credits,
    concurrencyLimit: 5,
  });
  const context: ModelCallContext = {
    accountId: account.id,
    url: 'http://127.0.0.1/page',
    kind: 'extract',
    source: 'firecrawl',
  };
  return { id: account.id, context };
}

const balance = async (id: string) =>
  (
    await store.db
      .selectFrom('accounts')
      .select('credits')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).credits;
/** The ledger's rows of requests (not the account's opening grant). */
const requestEntries = async (id: string) =>
  (
    await store.db
      .selectFrom('ledger')
      .select('kind')
      .where('account_id', '=', id)
      .where('request_id', 'is not', null)
      .orderBy('id')
      .execute()
  ).map((row) => row.kind);
const records = (id: string) =>
  store.db
    .selectFrom('requests')
    .select(['output_type', 'credits'])
    .where('account_id', '=', id)
    .execute();

test('run charges the call and writes its record when the model answers', async () => {
  const { id, context } = await account(100);
  const answer = await calls().run(context, ask);
  assert.deepEqual(answer, { value: 'A short summary.', charged: PRICE });
  assert.equal(await balance(id), 100 - PRICE);
  assert.deepEqual(await records(id), [{ output_type: 'extract', credits: PRICE }]);
});

test('a deferred call holds its reservation only, until the caller settles it in its own commit', async () => {
  const { id, context } = await account(100);
  const answer = await calls().runDeferred(context, ask);
  assert.equal(answer.value, 'A short summary.');
  // the node dies here: nothing charged, no record; the reservation is the reaper's to return
  assert.deepEqual(await requestEntries(id), ['reserve']);
  assert.equal(await balance(id), 100 - PRICE);
  assert.deepEqual(await records(id), []);
  await store.transact(async (trx) => {
    await answer.settle({ db: trx, dialect: store.dialect, transact: (work) => work(trx) });
  });
  assert.equal(await balance(id), 100 - PRICE);
  assert.deepEqual(await records(id), [{ output_type: 'extract', credits: PRICE }]);
});

test("a deferred call whose caller's commit fails charges nothing", async () => {
  const { id, context } = await account(100);
  const answer = await calls().runDeferred(context, ask);
  await assert.rejects(
    store.transact(async (trx) => {
      await answer.settle({ db: trx, dialect: store.dialect, transact: (work) => work(trx) });
      throw new Error('the extract end failed');
    }),
    /the extract end failed/,
  );
  assert.deepEqual(await records(id), []);
  assert.deepEqual(await requestEntries(id), ['reserve']);
});
