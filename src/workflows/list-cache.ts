/**
 * The unpaged list (the contract's list has no pages) can be every workflow of an account:
 * 10,000 are 4.4 MB of JSON, ~40 ms to read and build. Each node keeps, per account, every
 * workflow's JSON text in list order with the account's change number it reflects, and
 * answers the same bytes again while that number (one primary-key read) has not moved. When
 * it has, the copy is brought up to date from the rows numbered above it (usually one row,
 * through the (account_id, change_seq) index), not read again whole.
 *
 * Why that is exact, across nodes on PostgreSQL too: every change to a workflow (create,
 * edit, rename, archive, unarchive, a run's lastRun and creditsSpent) takes the account's
 * next number and stamps the row with it in its own transaction (nextChangeSeq in
 * store/workflow-change-seq.ts). The number is taken by updating the account row first,
 * so on PostgreSQL the row lock makes numbers commit in order; SQLite has one writer. A
 * copy's number is read before its rows, so every change up to it is in them and every
 * later one has a higher number. Reads that arrive while another brings the copy up to
 * date wait for it, then check against the number they read themselves: a caller always
 * sees its own change.
 */
import type { Store } from '../store/db.js';
import { preparedQuery } from '../store/prepared-query.js';
import { type JsonRow, selectJsonRows } from './workflow-list-json.js';
import { workflowListQuery } from './workflow-store.js';

export interface ListCacheOptions {
  /** Bytes of row texts and list bodies kept per node. Default 64 MiB; 0 disables the cache. */
  maxBytes?: number;
}

export const DEFAULT_LIST_CACHE_BYTES = 64 * 1024 * 1024;

/** Past this share of changed rows, reading the whole list again beats patching the copy. */
const PATCH_THRESHOLD = 0.25;

/** A row as held: its JSON as UTF-8 bytes, which a body copies without encoding again. */
interface HeldRow {
  id: string;
  createdAt: number;
  archived: boolean;
  json: Buffer;
}

interface AccountCopy {
  seq: number;
  /** Newest first: created_at descending, then id descending, as the list query orders. */
  rows: HeldRow[];
  byId: Map<string, HeldRow>;
  /** The answered bytes per filter ('', 'true', 'false'), built on first use. */
  bodies: Map<string, Buffer>;
  bytes: number;
}

const seqQuery = preparedQuery((db, accountId: string) =>
  db.selectFrom('accounts').select('workflow_seq').where('id', '=', accountId),
);

export class WorkflowListCache {
  private readonly maxBytes: number;
  /** Map order is recency order (oldest first). */
  private readonly copies = new Map<string, AccountCopy>();
  /** Per account, the end of the chain of updates in progress. */
  private readonly updates = new Map<string, Promise<unknown>>();
  private bytes = 0;

  constructor(
    private readonly store: Store,
    options: ListCacheOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_LIST_CACHE_BYTES;
  }

  /** What the node holds (accounts and accounted bytes): for tests. */
  held(): { accounts: number; bytes: number } {
    return { accounts: this.copies.size, bytes: this.bytes };
  }

  /** The whole list's JSON bytes, or only the archived (true) or active (false) ones. */
  async body(accountId: string, archived?: boolean): Promise<Buffer> {
    const seq = await this.readSeq(accountId);
    let copy = this.copies.get(accountId);
    if (!copy || copy.seq < seq)
      copy = await this.serialised(accountId, () => this.update(accountId, seq));
    else this.touch(accountId, copy);
    const key = archived === undefined ? '' : String(archived);
    let body = copy.bodies.get(key);
    if (!body) {
      body = listBody(copy.rows, archived);
      copy.bodies.set(key, body);
      this.resize(accountId, copy, copy.bytes + body.length);
    }
    return body;
  }

  private async readSeq(accountId: string): Promise<number> {
    const [row] = await this.store.readRows(seqQuery(this.store.db, accountId));
    return Number(row?.workflow_seq ?? 0);
  }

  /** One update per account at a time: each builds on the copy the previous one left. */
  private serialised<T>(accountId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.updates.get(accountId) ?? Promise.resolve();
    const mine = previous.then(work, work);
    const tail = mine.catch(() => undefined);
    this.updates.set(accountId, tail);
    void tail.then(() => {
      if (this.updates.get(accountId) === tail) this.updates.delete(accountId);
    });
    return mine;
  }

  /** A copy reflecting at least change `seq` (the one the caller read). */
  private async update(accountId: string, seq: number): Promise<AccountCopy> {
    const held = this.copies.get(accountId);
    if (held && held.seq >= seq) return held;
    const now = await this.readSeq(accountId); // before the rows: see the header
    if (held) {
      const query = this.store.db
        .selectFrom('workflows')
        .where('account_id', '=', accountId)
        .where('change_seq', '>', held.seq);
      const changed = await selectJsonRows(this.store, query);
      if (changed.length <= held.rows.length * PATCH_THRESHOLD) {
        for (const row of changed) patch(held, row);
        held.seq = now;
        held.bodies.clear();
        this.resize(accountId, held, rowBytes(held.rows));
        return held;
      }
    }
    const selected = await selectJsonRows(
      this.store,
      workflowListQuery(this.store.db, accountId, {}),
    );
    const rows = selected.map((row) => toHeld(row, Buffer.from(row.json)));
    const copy: AccountCopy = {
      seq: now,
      rows,
      byId: new Map(rows.map((row) => [row.id, row])),
      bodies: new Map(),
      bytes: 0,
    };
    this.drop(accountId);
    this.copies.set(accountId, copy);
    this.resize(accountId, copy, rowBytes(rows));
    return copy;
  }

  private touch(accountId: string, copy: AccountCopy): void {
    this.copies.delete(accountId);
    this.copies.set(accountId, copy);
  }

  /** Records the copy's new size, then evicts the least recently used past the budget. */
  private resize(accountId: string, copy: AccountCopy, bytes: number): void {
    if (this.copies.get(accountId) !== copy) return; // not kept (evicted or too large)
    this.bytes += bytes - copy.bytes;
    copy.bytes = bytes;
    this.touch(accountId, copy);
    for (const [oldest] of this.copies) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  private drop(accountId: string): void {
    const copy = this.copies.get(accountId);
    if (!copy) return;
    this.bytes -= copy.bytes;
    this.copies.delete(accountId);
  }
}

function toHeld(row: JsonRow, json: Buffer): HeldRow {
  const { id, createdAt, archived } = row;
  return { id, createdAt, archived, json };
}

/**
 * A changed row's bytes in an allocation of their own. `Buffer.from` packs small strings into
 * shared 8 KB slabs: a patched row would keep a slab alive that is otherwise the garbage of
 * replaced rows, so a long-lived copy would grow with every change. A full read's rows are
 * packed (they live and die together with their copy).
 */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}

/**
 * `[row,row,…]` copied into one buffer: 10,000 rows take ~1 ms, where joining the texts
 * and encoding the result took ~15 ms.
 */
function listBody(rows: HeldRow[], archived: boolean | undefined): Buffer {
  const kept = archived === undefined ? rows : rows.filter((row) => row.archived === archived);
  let length = 2 + Math.max(0, kept.length - 1);
  for (const row of kept) length += row.json.length;
  const body = Buffer.allocUnsafe(length);
  let offset = 0;
  body[offset++] = 0x5b; // [
  for (const [index, row] of kept.entries()) {
    if (index > 0) body[offset++] = 0x2c; // ,
    offset += row.json.copy(body, offset);
  }
  body[offset] = 0x5d; // ]
  return body;
}

/** The rows' bytes, with a rough allowance for each row's objects. */
function rowBytes(rows: HeldRow[]): number {
  let bytes = 0;
  for (const row of rows) bytes += row.json.length + 160;
  return bytes;
}

/** Replaces a changed row's text, or puts a new row in its place in the order. */
function patch(copy: AccountCopy, changed: JsonRow): void {
  const row = toHeld(changed, ownBytes(changed.json));
  const old = copy.byId.get(row.id);
  if (old) {
    old.json = row.json;
    old.archived = row.archived;
    return;
  }
  let low = 0;
  let high = copy.rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (listsBefore(copy.rows[middle] as HeldRow, row)) low = middle + 1;
    else high = middle;
  }
  copy.rows.splice(low, 0, row);
  copy.byId.set(row.id, row);
}

/** Whether `a` comes before `b` in the list: newer, or as new with the greater id. */
function listsBefore(a: HeldRow, b: HeldRow): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}
