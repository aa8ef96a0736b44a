/**
 * An account's API keys and webhook secret as the account itself manages them (the
 * dashboard's Keys view): list, add, revoke, rotate. A key is known by an id derived from
 * its hash (never the key): the first 16 hex digits of its SHA-256.
 */
import type { Kysely } from 'kysely';
import { appError } from '../errors.js';
import { inTransaction } from '../store/in-transaction.js';
import type { Database } from '../store/schema.js';
import { generateApiKey, generateWebhookSecret, hashApiKey } from './api-key.js';

/** Active keys an account may hold at once. */
export const MAX_ACTIVE_KEYS = 10;

export interface KeyInfo {
  id: string;
  /** The key's first characters; null for keys made before prefixes were kept. */
  prefix: string | null;
  createdAt: number;
}

export interface NewKey extends KeyInfo {
  prefix: string;
  /** The key itself: shown once, never stored. */
  key: string;
}

export const keyIdOf = (keyHash: string) => keyHash.slice(0, 16);

/** What is kept of a key to tell it apart: `pgk_` and the next 6 characters. */
export const keyPrefixOf = (key: string) => key.slice(0, 10);

async function activeKeys(db: Kysely<Database>, accountId: string) {
  return db
    .selectFrom('api_keys')
    .select(['key_hash', 'prefix', 'created_at'])
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .execute();
}

export async function listKeys(db: Kysely<Database>, accountId: string): Promise<KeyInfo[]> {
  const rows = await activeKeys(db, accountId);
  return rows.map((row) => ({
    id: keyIdOf(row.key_hash),
    prefix: row.prefix,
    createdAt: Number(row.created_at),
  }));
}

async function insertKey(db: Kysely<Database>, accountId: string): Promise<NewKey> {
  const key = generateApiKey();
  const keyHash = hashApiKey(key);
  const createdAt = Date.now();
  const prefix = keyPrefixOf(key);
  await db
    .insertInto('api_keys')
    .values({ key_hash: keyHash, account_id: accountId, created_at: createdAt, prefix })
    .execute();
  return { id: keyIdOf(keyHash), prefix, createdAt, key };
}

export async function createKey(db: Kysely<Database>, accountId: string): Promise<NewKey> {
  return inTransaction(db, async (trx) => {
    const keys = await activeKeys(trx, accountId);
    if (keys.length >= MAX_ACTIVE_KEYS) throw appError('TOO_MANY_KEYS', MAX_ACTIVE_KEYS);
    return insertKey(trx, accountId);
  });
}

async function revokeIn(trx: Kysely<Database>, accountId: string, id: string, keepOne: boolean) {
  const keys = await activeKeys(trx, accountId);
  const key = keys.find((row) => keyIdOf(row.key_hash) === id);
  if (!key) throw appError('KEY_NOT_FOUND');
  if (keepOne && keys.length === 1) throw appError('LAST_KEY');
  await trx
    .updateTable('api_keys')
    .set({ revoked_at: Date.now() })
    .where('key_hash', '=', key.key_hash)
    .execute();
}

/** Revokes one key; the account's last active key cannot be revoked (it would lock it out). */
export async function revokeKey(db: Kysely<Database>, accountId: string, id: string) {
  await inTransaction(db, (trx) => revokeIn(trx, accountId, id, true));
}

/** Replaces one key by a new one, at once. */
export async function rotateKey(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<NewKey> {
  return inTransaction(db, async (trx) => {
    await revokeIn(trx, accountId, id, false);
    return insertKey(trx, accountId);
  });
}

/** A new webhook secret: deliveries signed from now on use it (pending ones included). */
export async function rotateWebhookSecret(
  db: Kysely<Database>,
  accountId: string,
): Promise<string> {
  const secret = generateWebhookSecret();
  await db
    .updateTable('accounts')
    .set({ webhook_secret: secret })
    .where('id', '=', accountId)
    .execute();
  return secret;
}
