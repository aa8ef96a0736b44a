/**
 * Refunds that could not run because the database was unreachable (a restart, a failover, a
 * locked file), retried in the background with backoff until it answers again, so a caller's
 * 503 never leaves its credits reserved until the reaper (issue 24, point 13). In memory only:
 * if this node dies first, the reservation's holder and deadline let the next start of this
 * node, or the reaper on any node, end it.
 */
import { isDatabaseUnavailable } from '../store/database-errors.js';

/** The first retry's delay; it doubles up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

export class LateRefunds {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  /** `onError`: a refund that failed for another reason (a bug); it is not retried. */
  constructor(private readonly onError: (error: unknown) => void = () => {}) {}

  /**
   * Runs `refund` after a short wait, and again while the database stays unreachable. A
   * refund the database refuses (the reservation already ended: the unique "one end per
   * request" index) is done. Also for other releases a caller's 503 must not leave behind
   * (an account's concurrency slot on PostgreSQL).
   */
  retry(refund: () => Promise<unknown>, attempt = 0): void {
    if (this.closed) return;
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** attempt);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      refund().catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) this.retry(refund, attempt + 1);
        else if (!isAlreadyEnded(error)) this.onError(error);
      });
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  /** How many refunds are waiting for the database. */
  waiting(): number {
    return this.timers.size;
  }

  /** Stops retrying (the node stops): what is left is the start-up release's or the reaper's. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

/** PostgreSQL's unique_violation, SQLite's UNIQUE constraint: someone ended it first. */
function isAlreadyEnded(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
