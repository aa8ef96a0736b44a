import type { Kysely } from 'kysely';

/**
 * Account names become unique (issue 30): the command line takes a name wherever it takes an
 * id, and two accounts named alike made `credit acme` fail. A database from before may hold
 * several accounts of one name: the oldest keeps it, each other one is renamed
 * `<name>-<the last 8 characters of its id>` (its id's random end, so the new names differ
 * from each other; `accounts list` shows them). Nothing else refers to an account by name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const accounts = db as unknown as Kysely<{
    accounts: { id: string; name: string; created_at: number };
  }>;
  const twins = await accounts
    .selectFrom('accounts')
    .select('name')
    .groupBy('name')
    .having((eb) => eb.fn.countAll(), '>', 1)
    .execute();
  for (const { name } of twins) {
    const rows = await accounts
      .selectFrom('accounts')
      .select('id')
      .where('name', '=', name)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const { id } of rows.slice(1)) {
      await accounts
        .updateTable('accounts')
        .set({ name: `${name}-${id.slice(-8)}` })
        .where('id', '=', id)
        .execute();
    }
  }
  await db.schema
    .createIndex('accounts_name_unique')
    .on('accounts')
    .column('name')
    .unique()
    .execute();
  // 001's plain index on the name: the unique one serves its lookups.
  await db.schema.dropIndex('accounts_name').execute();
}
