/**
 * When each API key last authenticated a request, kept cheaply: the hot path only reads a
 * map; a key's time is written at most once a minute per node, as a relaxed unit that shares
 * the commit of whatever else the turn writes. The conditional update keeps nodes from
 * writing a minute's time twice and never moves the time backwards.
 */
import type { Store } from '../store/db.js';

/** How fresh a key's last-used time is: the list shows it to the minute. */
export const KEY_USE_RESOLUTION_MS = 60_000;

/** Keys remembered between writes; past it the map starts over (one more write per key). */
const MAX_REMEMBERED_KEYS = 10_000;

export class KeyUseRecorder {
  private readonly writtenAt = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** Notes one use of the key with this hash; never waits and never throws. */
  seen(keyHash: string): void {
    const now = this.now();
    const last = this.writtenAt.get(keyHash);
    if (last !== undefined && now - last < KEY_USE_RESOLUTION_MS) return;
    if (this.writtenAt.size >= MAX_REMEMBERED_KEYS) this.writtenAt.clear();
    this.writtenAt.set(keyHash, now);
    this.store
      .transact(
        (trx) =>
          trx
            .updateTable('api_keys')
            .set({ last_used_at: now })
            .where('key_hash', '=', keyHash)
            .where((eb) =>
              eb.or([
                eb('last_used_at', 'is', null),
                eb('last_used_at', '<=', now - KEY_USE_RESOLUTION_MS),
              ]),
            )
            .execute(),
        { durable: false },
      )
      // A lost time is only a stale figure in the keys list: the next minute writes again.
      .catch(() => this.writtenAt.delete(keyHash));
  }
}
