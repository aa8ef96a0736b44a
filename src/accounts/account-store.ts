/** Accounts and their API keys. Keys exist here only as SHA-256 hashes. */
import type { Kysely, Selectable } from 'kysely';
import { openingGrant } from '../billing/credits.js';
import type { Store } from '../store/db.js';
import { newId } from '../store/ids.js';
import { inTransaction } from '../store/in-transaction.js';
import { preparedQuery } from '../store/prepared-query.js';
import type { AccountsTable, Database } from '../store/schema.js';
import { generateApiKey, generateWebhookSecret, hashApiKey, sameHash } from './api-key.js';
import { keyPrefixOf } from './key-store.js';

export interface Account {
  id: string;
  name: string;
  credits: number;
  concurrencyLimit: number;
  webhookSecret: string;
  createdAt: number;
}

/** An account row without the workflow list's change counter (list-cache.ts). */
type AccountRow = Omit<Selectable<AccountsTable>, 'workflow_seq'>;

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    credits: Number(row.credits),
    concurrencyLimit: row.concurrency_limit,
    webhookSecret: row.webhook_secret,
    createdAt: Number(row.created_at),
  };
}

export interface NewAccount {
  name: string;
  credits: number;
  concurrencyLimit: number;
}

/** Account names are unique (migration 015), so the command line can take a name for an id. */
export class AccountNameTakenError extends Error {
  override name = 'AccountNameTakenError';
  constructor(accountName: string) {
    super(`An account named "${accountName}" already exists`);
  }
}

/** PostgreSQL's unique_violation, SQLite's UNIQUE constraint. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Creates the account and its first key; returns the key, which is never retrievable again.
 * A name already taken is AccountNameTakenError (the unique index decides, so two creates at
 * once cannot both have it).
 */
export async function createAccount(
  db: Kysely<Database>,
  input: NewAccount,
): Promise<{ account: Account; apiKey: string }> {
  const now = Date.now();
  const row: AccountRow = {
    id: newId(),
    name: input.name,
    credits: input.credits,
    concurrency_limit: input.concurrencyLimit,
    webhook_secret: generateWebhookSecret(),
    created_at: now,
  };
  const apiKey = generateApiKey();
  await inTransaction(db, async (trx) => {
    try {
      await trx.insertInto('accounts').values(row).execute();
    } catch (error) {
      throw isUniqueViolation(error) ? new AccountNameTakenError(input.name) : error;
    }
    await trx
      .insertInto('api_keys')
      .values({
        key_hash: hashApiKey(apiKey),
        account_id: row.id,
        created_at: now,
        prefix: keyPrefixOf(apiKey),
      })
      .execute();
    await openingGrant(trx, row.id, input.credits);
  });
  return { account: toAccount(row), apiKey };
}

/**
 * Every authenticated request runs this lookup: built once per dialect (prepared-query.ts),
 * run through `readRows` (on SQLite a synchronous read-only connection: the Kysely driver
 * path cost ~15 µs and a dozen promises more).
 */
const keyLookup = preparedQuery((db, keyHash: string) =>
  db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .selectAll('accounts')
    .select(['api_keys.key_hash'])
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.revoked_at', 'is', null),
);

/** The account of a key, by its SHA-256 (`hashApiKey`); callers hash once per request. */
export async function findAccountByKeyHash(store: Store, keyHash: string): Promise<Account | null> {
  const [row] = await store.readRows(keyLookup(store.db, keyHash));
  // The lookup is by hash; the comparison repeats it in constant time as a second guard.
  if (!row || !sameHash(row.key_hash, keyHash)) return null;
  return toAccount(row);
}

/** The secret that signs the account's webhook deliveries; null once the account is gone. */
export async function webhookSecretOf(
  db: Kysely<Database>,
  accountId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('accounts')
    .select('webhook_secret')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row?.webhook_secret ?? null;
}

export async function getAccount(db: Kysely<Database>, id: string): Promise<Account | null> {
  const row = await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toAccount(row) : null;
}

/** For the command line: an id, else a name (unique since migration 015). */
export async function findAccountByNameOrId(
  db: Kysely<Database>,
  nameOrId: string,
): Promise<Account | null> {
  const byId = await getAccount(db, nameOrId);
  if (byId) return byId;
  const row = await db
    .selectFrom('accounts')
    .selectAll()
    .where('name', '=', nameOrId)
    .executeTakeFirst();
  return row ? toAccount(row) : null;
}

export async function listAccounts(db: Kysely<Database>): Promise<Account[]> {
  const rows = await db.selectFrom('accounts').selectAll().orderBy('created_at').execute();
  return rows.map(toAccount);
}

export async function countAccounts(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Revokes every key of the account and issues a new one. */
export async function rotateApiKey(db: Kysely<Database>, accountId: string): Promise<string> {
  const apiKey = generateApiKey();
  const now = Date.now();
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .execute();
    await trx
      .insertInto('api_keys')
      .values({
        key_hash: hashApiKey(apiKey),
        account_id: accountId,
        created_at: now,
        prefix: keyPrefixOf(apiKey),
      })
      .execute();
  });
  return apiKey;
}
