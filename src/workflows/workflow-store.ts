/**
 * The `workflows` table and a workflow's request records. Every query names the account
 * (ownership, contract 1.5) and walks an index in order: (account_id, created_at, id) for
 * the list, (workflow_id, created_at, id) for the history, so newest-first is index order
 * and a page costs its own size.
 */
import type { ExpressionBuilder, Kysely, Selectable, Transaction } from 'kysely';
import type { Dialect } from '../store/dialect.js';
import type { Database, RequestsTable, WorkflowsTable } from '../store/schema.js';

/** A workflow as the API sees it (its change number is the list cache's business). */
export type WorkflowRow = Omit<Selectable<WorkflowsTable>, 'change_seq'>;
export type RecordRow = Selectable<RequestsTable>;
type Db = Kysely<Database> | Transaction<Database>;

/** A keyset position: rows strictly older than this one. */
export interface Position {
  createdAt: number;
  id: string;
}

export interface ListFilter {
  archived?: boolean;
  /** No limit: every workflow of the account (the contract's list has no pages). */
  limit?: number;
  before?: Position;
}

/** A row-value comparison: both engines turn it into a range on the index, unlike an OR. */
function olderThan(before: Position) {
  return (eb: ExpressionBuilder<Database, 'workflows' | 'requests'>) =>
    eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(before.createdAt, before.id));
}

export async function insertWorkflow(db: Db, row: WorkflowRow, changeSeq: number): Promise<void> {
  await db
    .insertInto('workflows')
    .values({ ...row, change_seq: changeSeq })
    .execute();
}

/**
 * The caller's workflow or undefined. `lock` takes a row lock on PostgreSQL for a
 * read-modify-write (SQLite serialises writers already and has no FOR UPDATE).
 */
export async function findOwnedWorkflow(
  db: Db,
  accountId: string,
  id: string,
  lock?: Dialect,
): Promise<WorkflowRow | undefined> {
  let query = db
    .selectFrom('workflows')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId);
  if (lock === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst();
}

/** The list's rows in order, for any select list (rows, or JSON text per row). */
export function workflowListQuery(db: Db, accountId: string, filter: ListFilter) {
  let query = db.selectFrom('workflows').where('account_id', '=', accountId);
  if (filter.archived !== undefined) query = query.where('archived', '=', filter.archived ? 1 : 0);
  if (filter.before) query = query.where(olderThan(filter.before));
  query = query.orderBy('created_at', 'desc').orderBy('id', 'desc');
  if (filter.limit !== undefined) query = query.limit(filter.limit);
  return query;
}

export async function listWorkflows(
  db: Db,
  accountId: string,
  filter: ListFilter,
): Promise<WorkflowRow[]> {
  return workflowListQuery(db, accountId, filter).selectAll().execute();
}

export async function updateWorkflow(
  db: Db,
  id: string,
  set: Partial<Pick<WorkflowRow, 'name' | 'config' | 'archived' | 'updated_at'>>,
  changeSeq: number,
): Promise<void> {
  await db
    .updateTable('workflows')
    .set({ ...set, change_seq: changeSeq })
    .where('id', '=', id)
    .execute();
}

/**
 * Sets `archived`; a repeat changes nothing (not even updatedAt), so it answers the same.
 * `changeSeq` is the number the transaction took (nextChangeSeq) before.
 */
export async function setArchived(
  db: Db,
  accountId: string,
  id: string,
  archived: boolean,
  now: number,
  changeSeq: number,
): Promise<WorkflowRow | undefined> {
  await db
    .updateTable('workflows')
    // Strictly later, even within one millisecond, so updatedAt orders the changes.
    .set((eb) => ({
      archived: archived ? 1 : 0,
      change_seq: changeSeq,
      updated_at: eb
        .case()
        .when('updated_at', '<', now)
        .then(eb.val(now)) // bound, not inlined: one SQL text for every call
        .else(eb('updated_at', '+', 1))
        .end(),
    }))
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('archived', '=', archived ? 0 : 1)
    .execute();
  return findOwnedWorkflow(db, accountId, id);
}

/** Finished runs of one workflow, newest first (a run still in progress is not history yet). */
export async function listRecords(
  db: Db,
  workflowId: string,
  limit: number,
  before?: Position,
): Promise<RecordRow[]> {
  let query = db
    .selectFrom('requests')
    .selectAll()
    .where('workflow_id', '=', workflowId)
    .where('status', '!=', 'pending');
  if (before) {
    query = query.where(olderThan(before));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function findRecordPosition(
  db: Db,
  workflowId: string,
  recordId: string,
): Promise<Position | undefined> {
  const row = await db
    .selectFrom('requests')
    .select(['created_at', 'id'])
    .where('id', '=', recordId)
    .where('workflow_id', '=', workflowId)
    .executeTakeFirst();
  return row ? { createdAt: row.created_at, id: row.id } : undefined;
}
