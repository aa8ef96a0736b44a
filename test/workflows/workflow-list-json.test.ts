/**
 * The list's JSON text (SQL-built on the embedded engine, JS-built on PostgreSQL) is the
 * value of the plain mapping, for awkward names and every field state.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createAccount } from '../../src/accounts/account-store.js';
import { openStore, type Store } from '../../src/store/db.js';
import { newId } from '../../src/store/ids.js';
import { toWorkflowJson } from '../../src/workflows/workflow-json.js';
import { listWorkflowsJson } from '../../src/workflows/workflow-list-json.js';
import { listWorkflows, type WorkflowRow } from '../../src/workflows/workflow-store.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';

const NAMES = [
  'plain',
  'quote " and backslash \\ and slash /',
  'new\nline\ttab\r\u0001\u001f control',
  'ünïcødé — “quotes” 日本語 😀',
  '</script><b>html</b>',
  "'single' and ' || ' sql",
];

async function check(store: Store): Promise<void> {
  const { account } = await createAccount(store.db, { name: 'a', credits: 0, concurrencyLimit: 1 });
  const base = Date.UTC(2025, 0, 31, 23, 59, 59, 999);
  const rows: WorkflowRow[] = NAMES.map((name, i) => ({
    id: newId(),
    account_id: account.id,
    name,
    config: JSON.stringify({ url: `https://example.com/${i}?q="x"`, render: i % 2 === 0 }),
    archived: i % 2,
    credits_spent: i * 15,
    last_run_at: i % 3 === 0 ? null : base + i * 1001,
    created_at: base - i * 7,
    updated_at: base + i,
  }));
  await store.db.insertInto('workflows').values(rows).execute();
  const third = rows[2] as WorkflowRow;
  const before = { createdAt: third.created_at, id: third.id };
  const filters = [{}, { archived: true }, { archived: false }, { limit: 2 }, { before }];
  for (const filter of filters) {
    const expected = (await listWorkflows(store.db, account.id, filter)).map(toWorkflowJson);
    const text = await listWorkflowsJson(store, account.id, filter);
    assert.deepEqual(JSON.parse(text), expected, JSON.stringify(filter));
  }
  assert.equal(JSON.parse(await listWorkflowsJson(store, account.id, {})).length, NAMES.length);
  // Rows were created newest-last-index-first: `before` the third keeps the three older ones.
  const older = JSON.parse(await listWorkflowsJson(store, account.id, { before })) as {
    id: string;
  }[];
  assert.deepEqual(
    older.map((w) => w.id),
    rows.slice(3).map((r) => r.id),
  );
  assert.equal(await listWorkflowsJson(store, 'nobody', {}), '[]');
}

test('embedded engine: SQL-built JSON equals the mapping', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-list-'));
  const store = await openStore({ databaseUrl: null, dataDir });
  try {
    await check(store);
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('PostgreSQL: JSON text equals the mapping', { skip: pgSkipReason }, async () => {
  const database = await createTestDatabase();
  const store = await openStore({ databaseUrl: database.url, dataDir: '/nonexistent' });
  try {
    await check(store);
  } finally {
    await store.close();
    await database.drop();
  }
});
