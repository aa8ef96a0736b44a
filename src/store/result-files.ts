/**
 * Kept results as files beside the embedded database (issue 26): DATA_DIR/results/ab/<sha256
 * of the result>.br, Brotli as the rows were. A 100 KB result written as a row went through
 * the write-ahead log and a checkpoint, in the one writer the ledger waits for; a file is
 * written by the libuv pool and the row (request_results.file, migration 020) is ~100 bytes.
 * Content-addressed: identical results (a page scraped again unchanged) share one file.
 *
 * Written to a temporary name, then renamed: a reader or a kill -9 never sees half a file. Not
 * synced: after a power loss a file may be lost or empty, and it then reads as not kept, as a
 * result still queued at a kill -9 does (a kept result is a detail, never a charge). Only the
 * embedded engine: on PostgreSQL several nodes share one database, not one disk.
 *
 * Files go when no row names them any more (`sweep`, run by the purge after it deletes rows):
 * the sweep leaves files younger than SWEEP_GRACE_MS, so a file written just before its row,
 * or an old file just named again by a new row (`write` touches it), is never taken.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  mkdir,
  readdir,
  readFile,
  rename,
  stat,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';

/** Longer than a kept result's queue wait plus its row's write, by far. */
export const SWEEP_GRACE_MS = 10 * 60_000;

const HASH = /^[0-9a-f]{64}$/;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

export class ResultFiles {
  /**
   * `dir`: the folder of the files (DATA_DIR/results), created on the first write;
   * `sweepGraceMs`: files younger than this survive a sweep. Default SWEEP_GRACE_MS.
   */
  constructor(
    readonly dir: string,
    private readonly sweepGraceMs = SWEEP_GRACE_MS,
  ) {}

  static hashOf(body: Buffer): string {
    return createHash('sha256').update(body).digest('hex');
  }

  private pathOf(hash: string): string {
    return join(this.dir, hash.slice(0, 2), `${hash}.br`);
  }

  /**
   * Whether the file is there; if so it is touched, so a sweep running before this result's
   * row is written leaves it.
   */
  async refresh(hash: string): Promise<boolean> {
    const now = new Date();
    try {
      await utimes(this.pathOf(hash), now, now);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /** Writes the file under its hash (compressed), atomically. */
  async write(hash: string, stored: Buffer): Promise<void> {
    const path = this.pathOf(hash);
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await mkdir(join(this.dir, hash.slice(0, 2)), { recursive: true });
    try {
      await writeFile(temporary, stored);
      await rename(temporary, path);
    } catch (error) {
      await unlink(temporary).catch(() => {});
      throw error;
    }
  }

  /** The stored (compressed) bytes, or null when the file is gone. */
  async read(hash: string): Promise<Buffer | null> {
    if (!HASH.test(hash)) return null;
    try {
      return await readFile(this.pathOf(hash));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(hash: string): Promise<boolean> {
    if (!HASH.test(hash)) return false;
    try {
      await stat(this.pathOf(hash));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  /**
   * Deletes every file (and left-over temporary file) older than the grace that `referenced`
   * does not hold: those of purged rows, and those a kill -9 left without a row. Returns how
   * many it deleted.
   */
  async sweep(referenced: ReadonlySet<string>): Promise<number> {
    const before = Date.now() - this.sweepGraceMs;
    let deleted = 0;
    let folders: string[];
    try {
      folders = await readdir(this.dir);
    } catch (error) {
      if (isMissing(error)) return 0;
      throw error;
    }
    for (const folder of folders) {
      const names = await readdir(join(this.dir, folder)).catch(() => [] as string[]);
      for (const name of names) {
        if (referenced.has(name.slice(0, 64)) && name.endsWith('.br')) continue;
        const path = join(this.dir, folder, name);
        try {
          if ((await stat(path)).mtimeMs >= before) continue;
          await unlink(path);
          deleted++;
        } catch (error) {
          if (!isMissing(error)) throw error;
        }
      }
    }
    return deleted;
  }
}
