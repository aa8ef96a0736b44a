/**
 * Workflows as a state machine (description "States and transitions", contract 24–32):
 * active ⇄ archived; edits only while active; nothing is ever deleted. Every operation
 * first finds the workflow among the caller's own (another account's is "not found"),
 * then checks the state, then the input (contract 1.2's order).
 */
import { appError } from '../errors.js';
import { normalizeWorkflowConfig } from '../scrape/params/index.js';
import type { Store } from '../store/db.js';
import { newId } from '../store/ids.js';
import { inTransaction } from '../store/in-transaction.js';
import { nextChangeSeq } from '../store/workflow-change-seq.js';
import type { WorkflowListCache } from './list-cache.js';
import { applyMergePatch } from './merge-patch.js';
import {
  bodyObject,
  type ListQuery,
  parseEditBody,
  parseHistoryQuery,
  parseName,
  parseRenameBody,
  unknownCursor,
} from './workflow-input.js';
import {
  type RequestRecordJson,
  toRecordJson,
  toWorkflowJson,
  type WorkflowJson,
} from './workflow-json.js';
import { listWorkflowsJson } from './workflow-list-json.js';
import {
  findOwnedWorkflow,
  findRecordPosition,
  insertWorkflow,
  type ListFilter,
  listRecords,
  setArchived,
  updateWorkflow,
  type WorkflowRow,
} from './workflow-store.js';

export interface WorkflowServiceOptions {
  /** Epoch ms. Default Date.now. */
  now?: () => number;
}

export class WorkflowService {
  private readonly now: () => number;
  private readonly listCache: WorkflowListCache;

  /** `listCache`: the node's copy of unpaged lists, built by the composition root. */
  constructor(
    private readonly store: Store,
    listCache: WorkflowListCache,
    options: WorkflowServiceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.listCache = listCache;
  }

  /**
   * Newest first; complete unless the caller asked for a page (`limit`, `before`). Answers
   * the JSON array's UTF-8 bytes (see workflow-list-json.ts and list-cache.ts).
   */
  async listJson(accountId: string, query: ListQuery): Promise<Buffer> {
    if (query.limit === undefined && query.before === undefined)
      return this.listCache.body(accountId, query.archived);
    const filter: ListFilter = query.archived === undefined ? {} : { archived: query.archived };
    if (query.limit !== undefined) filter.limit = query.limit;
    if (query.before !== undefined) {
      const row = await findOwnedWorkflow(this.store.db, accountId, query.before);
      if (!row) throw unknownCursor();
      filter.before = { createdAt: row.created_at, id: row.id };
    }
    return Buffer.from(await listWorkflowsJson(this.store, accountId, filter));
  }

  /** Contract 27: name first (`Name is required!`), then config. */
  async create(accountId: string, body: unknown): Promise<WorkflowJson> {
    const input = bodyObject(body);
    const name = parseName(input.name);
    const config = normalizeWorkflowConfig(input.config);
    const now = this.now();
    const row: WorkflowRow = {
      id: newId(),
      account_id: accountId,
      name,
      config: JSON.stringify(config),
      archived: 0,
      credits_spent: 0,
      last_run_at: null,
      created_at: now,
      updated_at: now,
    };
    await inTransaction(this.store.db, async (trx) =>
      insertWorkflow(trx, row, await nextChangeSeq(trx, accountId)),
    );
    return toWorkflowJson(row);
  }

  /** Contract 29: name and/or a merge patch of the config, on an active workflow. */
  edit(accountId: string, id: string, body: unknown): Promise<WorkflowJson> {
    return this.change(accountId, id, (row) => {
      const edit = parseEditBody(body);
      const set: Partial<WorkflowRow> = {};
      if (edit.name !== undefined) set.name = edit.name;
      if (Object.hasOwn(edit, 'configPatch')) {
        const merged = applyMergePatch(JSON.parse(row.config), edit.configPatch);
        set.config = JSON.stringify(normalizeWorkflowConfig(merged));
      }
      return set;
    });
  }

  rename(accountId: string, id: string, body: unknown): Promise<WorkflowJson> {
    return this.change(accountId, id, () => ({ name: parseRenameBody(body) }));
  }

  async archive(accountId: string, id: string): Promise<WorkflowJson> {
    return this.setArchived(accountId, id, true);
  }

  async unarchive(accountId: string, id: string): Promise<WorkflowJson> {
    return this.setArchived(accountId, id, false);
  }

  /** Contract 32: records stay readable after archiving. The workflow is checked first. */
  async history(
    accountId: string,
    id: string,
    rawQuery: Record<string, unknown>,
  ): Promise<RequestRecordJson[]> {
    const { db } = this.store;
    const row = await findOwnedWorkflow(db, accountId, id);
    if (!row) throw appError('WORKFLOW_NOT_FOUND');
    const query = parseHistoryQuery(rawQuery);
    let before: { createdAt: number; id: string } | undefined;
    if (query.before !== undefined) {
      before = await findRecordPosition(db, row.id, query.before);
      if (!before) throw unknownCursor();
    }
    const rows = await listRecords(db, row.id, query.limit, before);
    return rows.map(toRecordJson);
  }

  /**
   * Read-modify-write under a row lock (PostgreSQL) or SQLite's single writer, so two
   * concurrent merge patches both land and an edit cannot slip past an archive.
   */
  private async change(
    accountId: string,
    id: string,
    compute: (row: WorkflowRow) => Partial<WorkflowRow>,
  ): Promise<WorkflowJson> {
    const { db, dialect } = this.store;
    return inTransaction(db, async (trx) => {
      // First: a refusal below rolls it back with everything else.
      const changeSeq = await nextChangeSeq(trx, accountId);
      const row = await findOwnedWorkflow(trx, accountId, id, dialect);
      if (!row) throw appError('WORKFLOW_NOT_FOUND');
      if (row.archived) throw appError('WORKFLOW_ARCHIVED');
      // Strictly later, even within one millisecond, so updatedAt orders the changes.
      const set = { ...compute(row), updated_at: Math.max(this.now(), row.updated_at + 1) };
      await updateWorkflow(trx, row.id, set, changeSeq);
      return toWorkflowJson({ ...row, ...set });
    });
  }

  private async setArchived(
    accountId: string,
    id: string,
    archived: boolean,
  ): Promise<WorkflowJson> {
    const row = await inTransaction(this.store.db, async (trx) => {
      const changeSeq = await nextChangeSeq(trx, accountId);
      const found = await setArchived(trx, accountId, id, archived, this.now(), changeSeq);
      if (!found) throw appError('WORKFLOW_NOT_FOUND'); // rolls the number back too
      return found;
    });
    return toWorkflowJson(row);
  }
}
