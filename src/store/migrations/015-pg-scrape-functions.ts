import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * PostgreSQL only (issue 26): the two writes every scrape makes before its page loads, each
 * one call, one round trip and one implicit transaction instead of a BEGIN, its statements
 * and a COMMIT.
 *
 * `pagegrab_reserve` is the ledger's conditional reserve and its row. It turns
 * synchronous_commit off for its own transaction (set_config's `is_local`), so it is called
 * only outside an explicit transaction: until the scrape settles nobody has seen the
 * reservation, and the settle's durable commit flushes it too (the same rule as the embedded
 * engine's relaxed units).
 *
 * `pagegrab_take_slot` is the admission's advisory lock and conditional insert. The insert
 * must count the slots after the lock is held: a VOLATILE function takes a new snapshot for
 * each statement it runs, as separate statements in a transaction do, so a slot committed by
 * another node while this one waited for the lock is counted. A single SQL statement could
 * not do this (its snapshot is taken before any lock in it).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`
    create or replace function pagegrab_reserve(
      p_account text, p_request text, p_amount bigint, p_created_at bigint,
      p_holder text, p_deadline_at bigint
    ) returns bigint language plpgsql volatile as $$
    declare
      balance bigint;
    begin
      perform set_config('synchronous_commit', 'off', true);
      update accounts set credits = credits - p_amount
        where id = p_account and credits >= p_amount
        returning credits into balance;
      if balance is null then
        return null;
      end if;
      insert into ledger
        (account_id, request_id, kind, amount, balance_after, created_at, holder, deadline_at)
        values (p_account, p_request, 'reserve', -p_amount, balance, p_created_at, p_holder,
          p_deadline_at);
      return balance;
    end $$`.execute(db);
  await sql`
    create or replace function pagegrab_take_slot(
      p_id text, p_account text, p_node text, p_expires_at bigint, p_now bigint, p_limit bigint
    ) returns boolean language plpgsql volatile as $$
    begin
      perform pg_advisory_xact_lock(hashtext(p_account));
      insert into scrape_slots (id, account_id, node_id, expires_at)
        select p_id, p_account, p_node, p_expires_at
        where (
          select count(*) from scrape_slots
          where account_id = p_account and expires_at > p_now
        ) < p_limit;
      return found;
    end $$`.execute(db);
}
