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
  /** The account's name for it; null until given. */
  name: string | null;
  createdAt: number;
  /** When it last authenticated a request (to the minute, key-use.ts); null if never. */
  lastUsedAt: number | null;
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
    .select(['key_hash', 'prefix', 'name', 'created_at', 'last_used_at'])
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
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  }));
}

async function insertKey(
  db: Kysely<Database>,
  accountId: string,
  name: string | null,
): Promise<NewKey> {
  const key = generateApiKey();
  const keyHash = hashApiKey(key);
  const createdAt = Date.now();
  const prefix = keyPrefixOf(key);
  await db
    .insertInto('api_keys')
    .values({ key_hash: keyHash, account_id: accountId, created_at: createdAt, prefix, name })
    .execute();
  return { id: keyIdOf(keyHash), prefix, name, createdAt, lastUsedAt: null, key };
}

export async function createKey(
  db: Kysely<Database>,
  accountId: string,
  name: string | null = null,
): Promise<NewKey> {
  return inTransaction(db, async (trx) => {
    const keys = await activeKeys(trx, accountId);
    if (keys.length >= MAX_ACTIVE_KEYS) throw appError('TOO_MANY_KEYS', MAX_ACTIVE_KEYS);
    return insertKey(trx, accountId, name);
  });
}

/** Names (or, with null, unnames) one of the account's active keys. */
export async function renameKey(
  db: Kysely<Database>,
  accountId: string,
  id: string,
  name: string | null,
): Promise<KeyInfo> {
  const row = (await activeKeys(db, accountId)).find((k) => keyIdOf(k.key_hash) === id);
  if (!row) throw appError('KEY_NOT_FOUND');
  await db.updateTable('api_keys').set({ name }).where('key_hash', '=', row.key_hash).execute();
  return {
    id,
    prefix: row.prefix,
    name,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
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
  return key;
}

/** Revokes one key; the account's last active key cannot be revoked (it would lock it out). */
export async function revokeKey(db: Kysely<Database>, accountId: string, id: string) {
  await inTransaction(db, (trx) => revokeIn(trx, accountId, id, true));
}

/** Replaces one key by a new one, at once; the new one keeps the old one's name. */
export async function rotateKey(
  db: Kysely<Database>,
  accountId: string,
  id: string,
): Promise<NewKey> {
  return inTransaction(db, async (trx) => {
    const old = await revokeIn(trx, accountId, id, false);
    return insertKey(trx, accountId, old.name);
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
