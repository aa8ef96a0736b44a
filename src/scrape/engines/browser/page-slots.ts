/**
 * Admission to the browser: at most `capacity` renders at once, the rest wait in FIFO order
 * until a slot frees, their budget runs out (TIMED_OUT) or the queue is full
 * (NODE_SATURATED, 503 with Retry-After).
 */
import { appErrorWithHeaders } from '../../../errors.js';
import type { Budget } from './budget.js';

interface Waiter {
  granted: boolean;
  grant: () => void;
  fail: (error: Error) => void;
}

export class PageSlots {
  private inUse = 0;
  private readonly waiters: Waiter[] = [];

  constructor(
    readonly capacity: number,
    private readonly maxQueued: number,
  ) {}

  get active(): number {
    return this.inUse;
  }

  get queued(): number {
    return this.waiters.length;
  }

  async acquire(budget: Budget): Promise<void> {
    budget.check();
    if (this.inUse < this.capacity && this.waiters.length === 0) {
      this.inUse += 1;
      return;
    }
    if (this.waiters.length >= this.maxQueued) {
      throw appErrorWithHeaders('NODE_SATURATED', { 'Retry-After': '5' });
    }
    let waiter: Waiter | undefined;
    const granted = new Promise<void>((resolve, reject) => {
      const entry: Waiter = {
        granted: false,
        grant: () => {
          entry.granted = true;
          resolve();
        },
        fail: reject,
      };
      waiter = entry;
      this.waiters.push(waiter);
    });
    try {
      await budget.race(granted);
    } catch (error) {
      const index = this.waiters.indexOf(waiter!);
      if (index >= 0) this.waiters.splice(index, 1);
      // Granted just as the budget ran out: hand the slot on.
      if (waiter!.granted) this.release();
      throw error;
    }
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.inUse -= 1;
  }

  /** Fails every waiter (shutdown). */
  rejectAll(error: Error): void {
    for (const waiter of this.waiters.splice(0)) waiter.fail(error);
  }
}
