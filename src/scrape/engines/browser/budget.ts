/**
 * The request's time budget (contract 2.9: `timeout` covers the whole scrape, instructions
 * included). Every browser call is raced against the deadline, so a hung call never
 * outlives the request; the page it ran on is then retired, not reused.
 */
import { appError } from '../../../errors.js';

export class Budget {
  constructor(
    /** Epoch ms by which the scrape must be done. */
    readonly deadline: number,
    /** The caller's `timeout`, for the error text. */
    readonly timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {}

  remaining(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  /** Throws TIMED_OUT when nothing is left (or the client went away). */
  check(): void {
    if (this.remaining() <= 0 || this.signal?.aborted) throw this.timedOut();
  }

  timedOut(): Error {
    return appError('TIMED_OUT', this.timeoutMs);
  }

  /**
   * Races `work` against the deadline (and `cap` ms, if smaller, reported by `onCap`).
   * The losing promise keeps running: callers retire whatever it ran on.
   */
  async race<T>(work: Promise<T>, cap?: { ms: number; onCap: () => Error }): Promise<T> {
    const left = this.remaining();
    if (left <= 0 || this.signal?.aborted) {
      work.catch(() => {});
      throw this.timedOut();
    }
    const capped = cap !== undefined && cap.ms < left;
    const ms = capped ? cap.ms : left;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(capped ? cap.onCap() : this.timedOut()), ms);
      onAbort = () => reject(this.timedOut());
      this.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([work, limit]);
    } finally {
      clearTimeout(timer);
      if (onAbort) this.signal?.removeEventListener('abort', onAbort);
      work.catch(() => {});
    }
  }
}

/** Resolves after `ms`, or rejects early when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('aborted'));
      },
      { once: true },
    );
  });
}
