/**
 * Per-account scrape slots shared by every node on one PostgreSQL. A transaction-scoped
 * advisory lock per account serialises the count-and-insert, so two nodes can never both
 * take the last slot. A slot carries an expiry past its scrape's budget: if its node dies,
 * the slot stops counting once it expires.
 */
import { type Kysely, sql } from 'kysely';
import { newId } from '../../store/ids.js';
import type { Database } from '../../store/schema.js';
import type { AccountSlots } from './admission.js';

export function createPostgresAccountSlots(db: Kysely<Database>, nodeId: string): AccountSlots {
  return {
    async tryAcquire(accountId, limit, ttlMs) {
      const id = newId();
      const now = Date.now();
      const taken = await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext(${accountId}))`.execute(trx);
        const row = await trx
          .selectFrom('scrape_slots')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('account_id', '=', accountId)
          .where('expires_at', '>', now)
          .executeTakeFirstOrThrow();
        if (Number(row.n) >= limit) return false;
        await trx
          .insertInto('scrape_slots')
          .values({ id, account_id: accountId, node_id: nodeId, expires_at: now + ttlMs })
          .execute();
        return true;
      });
      if (!taken) return null;
      return async () => {
        await db.deleteFrom('scrape_slots').where('id', '=', id).execute();
        // Expired slots of dead nodes are swept by whoever releases next.
        await db.deleteFrom('scrape_slots').where('expires_at', '<', Date.now()).execute();
      };
    },
  };
}
