/**
 * Admission control: how many scrapes may run at once. Two bounds:
 * - per account (contract 2.16, default 10): 429 `Too many concurrent requests`;
 * - per node: 503 with Retry-After when this node is saturated.
 * On PostgreSQL the account bound holds across every node (slots are rows, see
 * account-slots-pg.ts); on the embedded engine one process is the whole service.
 */
import { appError, appErrorWithHeaders } from '../../errors.js';

export type Release = () => Promise<void>;

/**
 * One of the node's scrape slots, taken at a door before any database work so that a
 * saturated node refuses (503) before anything is reserved or recorded: a balancer may then
 * retry the call on another node. `release` may be called more than once.
 */
export interface NodeSlot {
  release(): void;
}

/** Where per-account slots are counted: this process, or the shared database. */
export interface AccountSlots {
  /** Takes a slot, or returns null when the account holds `limit` already. */
  tryAcquire(accountId: string, limit: number, ttlMs: number): Promise<Release | null>;
}

export interface Admission {
  /** Takes a node slot or throws 503 (NODE_SATURATED, with Retry-After) at once. */
  holdNode(): NodeSlot;
  /**
   * Admits one scrape or throws 429/503. With `slot` (the door's, from `holdNode`) the node
   * bound was already checked; the returned release frees that slot too. The release must be
   * called exactly once.
   */
  admit(accountId: string, limit: number, budgetMs: number, slot?: NodeSlot): Promise<Release>;
  /** Scrapes in flight on this node. */
  inFlight(): number;
  capacity(): number;
  /** The account's scrapes running on this node. */
  inFlightFor(accountId: string): number;
}

export function createMemoryAccountSlots(): AccountSlots {
  const held = new Map<string, number>();
  return {
    async tryAcquire(accountId, limit) {
      const current = held.get(accountId) ?? 0;
      if (current >= limit) return null;
      held.set(accountId, current + 1);
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        const left = (held.get(accountId) ?? 1) - 1;
        if (left <= 0) held.delete(accountId);
        else held.set(accountId, left);
      };
    },
  };
}

/** Seconds a client should wait before retrying a saturated node. */
const RETRY_AFTER_SECONDS = '2';
/** A slot outlives its scrape's budget by this much before another node may reclaim it. */
const SLOT_MARGIN_MS = 30_000;

export function createAdmission(slots: AccountSlots, nodeCapacity: number): Admission {
  let inFlight = 0;
  const perAccount = new Map<string, number>();
  const track = (accountId: string, delta: number) => {
    const next = (perAccount.get(accountId) ?? 0) + delta;
    if (next > 0) perAccount.set(accountId, next);
    else perAccount.delete(accountId);
  };
  const holdNode = (): NodeSlot => {
    if (inFlight >= nodeCapacity) {
      throw appErrorWithHeaders('NODE_SATURATED', { 'Retry-After': RETRY_AFTER_SECONDS });
    }
    inFlight++;
    let held = true;
    return {
      release() {
        if (!held) return;
        held = false;
        inFlight--;
      },
    };
  };
  return {
    holdNode,
    async admit(accountId, limit, budgetMs, slot) {
      const node = slot ?? holdNode();
      let release: Release | null = null;
      try {
        release = await slots.tryAcquire(accountId, limit, budgetMs + SLOT_MARGIN_MS);
      } finally {
        if (!release) node.release();
      }
      if (!release) throw appError('TOO_MANY_CONCURRENT');
      const releaseSlot = release;
      let done = false;
      track(accountId, 1);
      // Callable again when the slot's release failed (the database was away): the node's
      // counts move once, the shared slot is released until it is.
      return async () => {
        if (!done) {
          done = true;
          node.release();
          track(accountId, -1);
        }
        await releaseSlot();
      };
    },
    inFlight: () => inFlight,
    capacity: () => nodeCapacity,
    inFlightFor: (accountId) => perAccount.get(accountId) ?? 0,
  };
}
