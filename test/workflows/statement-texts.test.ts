/**
 * The store keeps prepared statements per distinct SQL text (a bounded cache), so the SQL of
 * a recurring write must not depend on its values. Kysely inlines a bare number given to a
 * CASE's THEN: a workflow run once wrote its timestamp into the text, and a 10-minute soak
 * filled the cache with 165 one-off statements (bench/soak.ts --snapshots, heap diff).
 * Compile-only: a dummy driver logs each query's text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type DatabaseConnection,
  DummyDriver,
  Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { type RunRecord, saveRunRecord } from '../../src/store/run-records.js';
import type { Database } from '../../src/store/schema.js';
import { setArchived } from '../../src/workflows/workflow-store.js';
import { sampleRunRecord } from '../helpers/run-record.js';

/** Answers the change-number bump (a write that returns a row) and nothing else. */
class ChangeSeqDriver extends DummyDriver {
  override async acquireConnection(): Promise<DatabaseConnection> {
    return {
      executeQuery: async <R>(query: { sql: string }): Promise<QueryResult<R>> => ({
        rows: (query.sql.includes('returning "workflow_seq"') ? [{ workflow_seq: 1 }] : []) as R[],
      }),
      streamQuery: async function* () {}, // no query here streams
    };
  }
}

function recordingDb(): { db: Kysely<Database>; texts: string[]; values: unknown[][] } {
  const texts: string[] = [];
  const values: unknown[][] = [];
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new ChangeSeqDriver(),
      createIntrospector: (k) => new SqliteIntrospector(k),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
    log: (event) => {
      texts.push(event.query.sql);
      values.push([...event.query.parameters]);
    },
  });
  return { db, texts, values };
}

const record = (createdAt: number, credits: number): RunRecord =>
  sampleRunRecord({
    id: `r-${createdAt}`,
    accountId: 'acc',
    workflowId: 'wf',
    url: 'https://example.com/',
    credits,
    createdAt,
  });

test('a workflow run record is written with the same SQL texts whatever its values', async () => {
  const first = recordingDb();
  await saveRunRecord(first.db, record(1_000_000, 15));
  const second = recordingDb();
  await saveRunRecord(second.db, record(2_000_123, 7));
  assert.ok(
    first.texts.some((t) => t.startsWith('update "workflows"')),
    'the workflow row is updated',
  );
  assert.deepEqual(second.texts, first.texts);
  // The timestamp still reaches the database, as a parameter.
  assert.ok(second.values.some((v) => v.includes(2_000_123)));
});

test('archiving is written with the same SQL text whatever the clock says', async () => {
  const first = recordingDb();
  await setArchived(first.db, 'acc', 'wf', true, 1_000_000, 1);
  const second = recordingDb();
  await setArchived(second.db, 'acc', 'wf', true, 2_000_123, 2);
  assert.ok(first.texts.length > 0);
  assert.deepEqual(second.texts, first.texts);
  assert.ok(second.values.some((v) => v.includes(2_000_123)));
});
