/**
 * Per-account scrape slots shared by every node on one PostgreSQL. A transaction-scoped
 * advisory lock per account serialises the count-and-insert, so two nodes can never both
 * take the last slot. A slot carries an expiry past its scrape's budget: if its node dies,
 * the slot stops counting once it expires.
 *
 * Every scrape takes and frees one, so each costs as few round trips and commits as it can
 * (issue 26): the take is the lock and one conditional insert (the count is read inside the
 * insert, by a statement that starts after the lock is held, so it sees every slot committed
 * before); the release is one delete that also sweeps expired slots.
 */
import { type Kysely, sql } from 'kysely';
import { newId } from '../../store/ids.js';
import { inTransaction } from '../../store/in-transaction.js';
import type { Database } from '../../store/schema.js';
import type { AccountSlots } from './admission.js';

export function createPostgresAccountSlots(db: Kysely<Database>, nodeId: string): AccountSlots {
  return {
    async tryAcquire(accountId, limit, ttlMs) {
      const id = newId();
      const now = Date.now();
      const taken = await inTransaction(db, async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${accountId}))`.execute(trx);
        // Cast: parameters in an INSERT's SELECT list have no type of their own.
        const { rows } = await sql<{ id: string }>`
          insert into scrape_slots (id, account_id, node_id, expires_at)
          select ${id}::text, ${accountId}::text, ${nodeId}::text, ${now + ttlMs}::bigint
          where (
            select count(*) from scrape_slots
            where account_id = ${accountId} and expires_at > ${now}
          ) < ${limit}::bigint
          returning id`.execute(trx);
        return rows.length > 0;
      });
      if (!taken) return null;
      // Expired slots of dead nodes are swept by whoever releases next, in the same delete.
      return async () => {
        await sql`delete from scrape_slots where id = ${id} or expires_at < ${Date.now()}`.execute(
          db,
        );
      };
    },
  };
}
