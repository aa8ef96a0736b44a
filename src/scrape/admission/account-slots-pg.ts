/**
 * Per-account scrape slots shared by every node on one PostgreSQL. A transaction-scoped
 * advisory lock per account serialises the count-and-insert, so two nodes can never both
 * take the last slot. A slot carries an expiry past its scrape's budget: if its node dies,
 * the slot stops counting once it expires.
 *
 * Every scrape takes and frees one, so each costs as few round trips as it can (issue 26): the
 * take is one call of `pagegrab_take_slot` (migration 015: the lock, then a conditional insert
 * that counts the slots with a snapshot taken after the lock is held, so it sees every slot
 * committed before), one implicit transaction; the release is one delete that also sweeps
 * expired slots.
 */
import { CompiledQuery, type Kysely, sql } from 'kysely';
import { newId } from '../../store/ids.js';
import type { Database } from '../../store/schema.js';
import type { AccountSlots } from './admission.js';

const TAKE_SLOT = 'select pagegrab_take_slot($1, $2, $3, $4, $5, $6) as taken';

export function createPostgresAccountSlots(db: Kysely<Database>, nodeId: string): AccountSlots {
  return {
    async tryAcquire(accountId, limit, ttlMs) {
      const id = newId();
      const now = Date.now();
      const { rows } = await db.executeQuery(
        CompiledQuery.raw(TAKE_SLOT, [
          id,
          accountId,
          nodeId,
          now + ttlMs,
          now,
          limit,
        ]) as CompiledQuery<{
          taken: boolean;
        }>,
      );
      if (!rows[0]?.taken) return null;
      // Expired slots of dead nodes are swept by whoever releases next, in the same delete.
      return async () => {
        await sql`delete from scrape_slots where id = ${id} or expires_at < ${Date.now()}`.execute(
          db,
        );
      };
    },
  };
}
