/**
 * Kept results (the request log's detail, RESULT_RETENTION_DAYS) written behind the answer,
 * compressed, in batches (issue 26): a 100 KB result written as a row in the settle's
 * transaction was most of what that transaction wrote, and the write-ahead log's growth forced
 * checkpoints on the event loop. The settle still writes the charge and the record; the result follows a
 * few milliseconds later, compressed with Brotli's fastest setting (quality 0), many results
 * in one relaxed transaction on SQLite (no fsync: a lost result is only a missing detail) or one
 * statement on PostgreSQL.
 *
 * What a crash or kill -9 can lose: the results queued and not yet written (at most
 * MAX_PENDING_BYTES; typically the last GATHER_MS, 25 ms, of results). Never a charge, a refund
 * or a record: those commit in the settle before the caller is answered. Until written, this
 * node reads a result from its queue, so its own caller never sees it missing.
 *
 * On the embedded engine (given `files`) the compressed result is a file named by its hash
 * (result-files.ts) and its row only names it: the row stays ~100 bytes in the one writer's
 * transaction, and identical results share one file. A file found missing reads as not kept.
 */
import { promisify } from 'node:util';
import { brotliCompressSync, brotliDecompress, constants } from 'node:zlib';
import type { Store } from './db.js';
import {
  type EncodedResult,
  purgeRequestResults,
  readRequestResult,
  referencedResultFiles,
  resultInfo,
  resultsInsert,
  type StoredResult,
} from './request-results.js';
import { ResultFiles } from './result-files.js';

const decompress = promisify(brotliDecompress);
/**
 * Brotli at quality 0 with a 256 KB window: on a real 100 KB HTML page 0.27-0.31 ms of CPU for
 * 18.7 KB, where quality 1 (window 2 MB) took 0.55-0.61 ms for 17.8 KB (5% smaller) and gzip
 * -1 0.64-0.87 ms (issue 26: 500 warm calls per setting, two rounds, Node 20). The
 * window bounds the encoder's buffers, allocated anew for every call: a kept result is at most
 * RESULT_MAX_BYTES, and quality 0 finds its matches close by anyway. Synchronously, on
 * purpose: the asynchronous call cost the event loop more (0.8-1.3 ms a page: the encoder's
 * set-up and the chunk callbacks) than the whole synchronous compression, and the pool's
 * threads share the same cores.
 */
function compress(body: Buffer): Buffer {
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 0,
      [constants.BROTLI_PARAM_LGWIN]: 18,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

export interface KeptResult {
  requestId: string;
  accountId: string;
  contentType: string;
  body: Buffer;
}

/**
 * Bytes waiting to be written beyond which a result is not kept: under a database that has
 * stopped answering the queue must not grow with every scrape.
 */
export const MAX_PENDING_BYTES = 64 * 1024 * 1024;
/** Results per write: bounds one transaction's hold on the writer. */
const MAX_BATCH = 64;
/**
 * How long the first queued result waits for others to share its write: one commit for many
 * scrapes even one at a time, for at most this much more that a crash can lose.
 */
const GATHER_MS = 25;

interface Pending extends KeptResult {
  createdAt: number;
}

export class KeptResults {
  private readonly pending = new Map<string, Pending>();
  private pendingBytes = 0;
  private writing: Promise<void> | null = null;
  /** Results not kept: the queue was full, or their write failed. */
  dropped = 0;

  private readonly maxPendingBytes: number;
  /** The embedded engine's result files, read and purged; null: PostgreSQL. */
  private readonly files: ResultFiles | null;
  /** Whether new results are written as files (RESULT_FILES) rather than rows. */
  private readonly writeFiles: boolean;

  constructor(
    private readonly store: Pick<Store, 'db' | 'runRelaxed'>,
    options: { maxPendingBytes?: number; files?: ResultFiles | null; writeFiles?: boolean } = {},
  ) {
    this.maxPendingBytes = options.maxPendingBytes ?? MAX_PENDING_BYTES;
    this.files = options.files ?? null;
    this.writeFiles = options.writeFiles ?? this.files !== null;
  }

  /** Queues a result to be kept; returns at once and never throws. */
  keep(result: KeptResult): void {
    if (this.pendingBytes + result.body.length > this.maxPendingBytes) {
      this.dropped++;
      return;
    }
    this.pending.set(result.requestId, { ...result, createdAt: Date.now() });
    this.pendingBytes += result.body.length;
    this.writing ??= new Promise<void>((resolve) => setTimeout(resolve, GATHER_MS)).then(() =>
      this.writeAll(),
    );
  }

  /** Resolves when everything queued before the call is written (or dropped). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  async read(accountId: string, requestId: string): Promise<StoredResult | null> {
    const queued = this.queued(accountId, requestId);
    if (queued)
      return { contentType: queued.contentType, body: queued.body, createdAt: queued.createdAt };
    const stored = await readRequestResult(this.store.db, accountId, requestId);
    if (!stored) return null;
    const { encoding, file, ...result } = stored;
    if (file !== null) return this.readFile(file, result);
    return encoding === 'br' ? { ...result, body: await decompress(result.body) } : result;
  }

  /** A file deleted or damaged outside the service reads as not kept, never as a failure. */
  private async readFile(file: string, row: StoredResult): Promise<StoredResult | null> {
    const stored = await this.files?.read(file);
    if (!stored) return null;
    try {
      return { ...row, body: await decompress(stored) };
    } catch {
      return null;
    }
  }

  async info(
    accountId: string,
    requestId: string,
  ): Promise<{ contentType: string; size: number } | null> {
    const queued = this.queued(accountId, requestId);
    if (queued) return { contentType: queued.contentType, size: queued.body.length };
    const info = await resultInfo(this.store.db, accountId, requestId);
    if (!info) return null;
    if (info.file !== null && !(await this.files?.exists(info.file))) return null;
    return { contentType: info.contentType, size: info.size };
  }

  /**
   * Deletes results past the retention (created before `before`) and each account's oldest
   * past its byte budget, then the files no row names any more. Returns the rows deleted.
   */
  async purge(before: number, maxBytesPerAccount: number): Promise<number> {
    const deleted = await purgeRequestResults(this.store.db, before, maxBytesPerAccount);
    if (this.files) await this.files.sweep(await referencedResultFiles(this.store.db));
    return deleted;
  }

  private queued(accountId: string, requestId: string): Pending | null {
    const queued = this.pending.get(requestId);
    return queued && queued.accountId === accountId ? queued : null;
  }

  private async writeAll(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const batch = [...this.pending.values()].slice(0, MAX_BATCH);
        try {
          const rows =
            this.files !== null && this.writeFiles
              ? await this.storeFiles(this.files, batch)
              : batch.map((result) => ({ ...result, stored: compress(result.body), file: null }));
          await this.save(rows);
        } catch {
          // The database is out of reach or refused: these results are not kept.
          this.dropped += batch.length;
        }
        for (const result of batch) {
          this.pending.delete(result.requestId);
          this.pendingBytes -= result.body.length;
        }
      }
    } finally {
      this.writing = null;
    }
  }

  /** One relaxed statement: a commit group unit on SQLite, one round trip on PostgreSQL. */
  private async save(rows: EncodedResult[]): Promise<void> {
    if (rows.length > 0) await this.store.runRelaxed(resultsInsert(this.store.db, rows));
  }

  /** Each result's file, written unless one with the same bytes is there; rows name them. */
  private async storeFiles(files: ResultFiles, batch: Pending[]): Promise<EncodedResult[]> {
    const written = new Set<string>();
    const rows: EncodedResult[] = [];
    for (const result of batch) {
      const file = ResultFiles.hashOf(result.body);
      if (!written.has(file) && !(await files.refresh(file))) {
        await files.write(file, compress(result.body));
      }
      written.add(file);
      rows.push({ ...result, stored: EMPTY, file });
    }
    return rows;
  }
}

const EMPTY = Buffer.alloc(0);
