/**
 * Finds the account an API key belongs to, on every authenticated request. On the embedded
 * engine the answer is cached per process while the database is unchanged: any commit (a
 * charge, a credit, a key rotation, from this process or the CLI) changes `dataVersion` and
 * drops the cache, so a rotated key stops at once and balances are never stale. A cache hit
 * costs at most one `PRAGMA data_version` per turn of the event loop instead of a join
 * (bench/auth-overhead.ts).
 */
import type { Store } from '../store/db.js';
import { type Account, findAccountByKeyHash } from './account-store.js';
import { hashApiKey } from './api-key.js';
import { KeyUseRecorder } from './key-use.js';

/** Distinct keys kept between two commits; past it the cache starts over. */
const MAX_CACHED_KEYS = 10_000;

export class ApiKeyLookup {
  private version: number | null = null;
  /** Whether `version` was read in this turn of the event loop. */
  private checkedThisTurn = false;
  private readonly cache = new Map<string, Account>();
  private readonly uses: KeyUseRecorder;

  constructor(private readonly store: Store) {
    this.uses = new KeyUseRecorder(store);
  }

  async find(apiKey: string): Promise<Account | null> {
    const keyHash = hashApiKey(apiKey);
    const account = await this.lookUp(keyHash);
    if (account) this.uses.seen(keyHash);
    return account;
  }

  private async lookUp(keyHash: string): Promise<Account | null> {
    if (!this.checkedThisTurn && !this.checkVersion()) {
      return findAccountByKeyHash(this.store, keyHash);
    }
    // Keyed by hash, so the cache holds no more of a key than the database does.
    const cached = this.cache.get(keyHash);
    if (cached) return { ...cached };
    const version = this.version;
    const account = await findAccountByKeyHash(this.store, keyHash);
    // A commit since the version was read only makes this entry miss in the next turn.
    if (account && this.version === version) this.cache.set(keyHash, { ...account });
    return account;
  }

  /**
   * Reads the version once per turn of the event loop (a cold SQLite call costs ~10 µs).
   * A commit a caller could have seen before sending its request (its answer, the CLI
   * exiting) happened in an earlier turn than the request's arrival, so it is always seen.
   * False when the store offers no version (PostgreSQL): no caching.
   */
  private checkVersion(): boolean {
    const version = this.store.dataVersion();
    if (version === null) return false;
    if (version !== this.version || this.cache.size >= MAX_CACHED_KEYS) {
      this.cache.clear();
      this.version = version;
    }
    this.checkedThisTurn = true;
    setImmediate(() => {
      this.checkedThisTurn = false;
    });
    return true;
  }
}
