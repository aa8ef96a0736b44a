/**
 * Opens the one database the service uses: embedded SQLite under DATA_DIR by default,
 * PostgreSQL when DATABASE_URL is set. Every dialect difference lives in this folder.
 */

import { mkdirSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { DEFAULTS } from '../config.js';
import { CommitGroup, type TransactionWork, type UnitOptions } from './commit-group.js';
import type { Dialect } from './dialect.js';
import { inTransaction } from './in-transaction.js';
import { migrate } from './migrations/index.js';
import type { Database } from './schema.js';
import { FifoSqliteDialect } from './sqlite-fifo-dialect.js';

export interface Store {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * Runs a compiled read on committed rows, outside every transaction. On SQLite it runs on
   * a second, read-only connection, synchronously: it neither waits behind the writer's
   * queue nor sees a transaction that is still open there. For the hottest reads (the API
   * key lookup on every request); everything else goes through `db`.
   */
  readRows<Row>(query: CompiledQuery<Row>): Promise<Row[]>;
  /**
   * A number that changes whenever any connection, in this process or another, commits
   * (SQLite's `data_version` seen from the read connection): a per-process cache of rows is
   * valid while it stays the same. Null on PostgreSQL, where no such cheap signal exists.
   */
  dataVersion(): number | null;
  /**
   * Runs `work` in a transaction of its own. On SQLite concurrent calls share one commit
   * (commit-group.ts), so `work` must only touch the database through `trx`; a unit that is
   * not `durable` answers before the log reaches the disk (SQLite: before the shared sync;
   * PostgreSQL: synchronous_commit off for its transaction).
   */
  transact<T>(work: TransactionWork<T>, options?: UnitOptions): Promise<T>;
  /**
   * One statement committed alone as a relaxed unit (not fsynced: kept results): on SQLite a
   * relaxed unit of the commit group; on PostgreSQL one round trip, outside any explicit
   * transaction, on a connection of the relaxed pool. Its rows.
   */
  runRelaxed<Row>(query: CompiledQuery<Row>): Promise<Row[]>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** A postgres:// URL, or null for the embedded engine. */
  databaseUrl: string | null;
  /** Folder of the embedded database (created if missing). */
  dataDir: string;
  /** PostgreSQL pool size (PG_POOL_SIZE). Default: config.ts's. */
  poolSize?: number;
  /** PG_CONNECT_TIMEOUT_MS. Default: config.ts's. */
  connectTimeoutMs?: number;
  /** PG_STATEMENT_TIMEOUT_MS. Default: config.ts's. */
  statementTimeoutMs?: number;
}

/** The database cannot be used at start-up: said in one line, without a stack trace. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** bigint columns hold epoch ms and credits, both far below 2^53: parse them as numbers. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** Distinct SQL texts kept prepared; `in (...)` lists make texts vary, so it is bounded. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely's SQLite driver prepares every query anew; preparing was ~10% of the CPU of an
 * authenticated request (bench/auth-overhead.ts). Statements are reusable in better-sqlite3
 * as long as one is not iterated twice at once, which the driver never does here (it uses
 * all/run, and streams only through iterate on its own connection, one query at a time).
 */
function withStatementCache(database: SqliteDatabase.Database) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return new Proxy(database, {
    get(target, property, receiver) {
      if (property !== 'prepare') return Reflect.get(target, property, receiver);
      return (sqlText: string) => {
        let statement = cache.get(sqlText);
        if (statement) {
          // Refresh its place in the LRU order.
          cache.delete(sqlText);
        } else {
          statement = target.prepare(sqlText);
          if (cache.size >= STATEMENT_CACHE_SIZE) {
            const oldest = cache.keys().next().value;
            if (oldest !== undefined) cache.delete(oldest);
          }
        }
        cache.set(sqlText, statement);
        return statement;
      };
    },
  });
}

interface SqliteHandles {
  db: Kysely<Database>;
  reader: SqliteDatabase.Database;
  /** Syncs the write-ahead log (what synchronous=FULL does at each commit), off the thread. */
  flushLog(): Promise<void>;
  closeLog(): Promise<void>;
}

/**
 * The write-ahead log's file, opened once: it lives as long as the database is open (SQLite
 * removes it only when its last connection closes) and is reused in place after checkpoints.
 */
function walSyncer(file: string): Pick<SqliteHandles, 'flushLog' | 'closeLog'> {
  let handle: Promise<FileHandle> | null = null;
  return {
    flushLog: async () => {
      // A failed open is tried again by the next flush, not remembered.
      handle ??= open(`${file}-wal`, 'r').catch((error: unknown) => {
        handle = null;
        throw error;
      });
      await (await handle).datasync();
    },
    closeLog: async () => {
      if (handle) await (await handle).close();
    },
  };
}

function openSqlite(dataDir: string): SqliteHandles {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'pagegrab.db');
  const database = new SqliteDatabase(file);
  // WAL lets readers (the CLI) work beside the server; FULL makes each commit durable.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  // Opened after the writer set WAL: in WAL a reader sees the last commit and never blocks it.
  const reader = withStatementCache(new SqliteDatabase(file));
  reader.pragma('query_only = ON');
  reader.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new FifoSqliteDialect({ database: withStatementCache(database) }),
  });
  return { db, reader, ...walSyncer(file) };
}

/**
 * How long the client waits past the server's own statement_timeout: a live server cancels
 * first (57014) and the connection stays usable; only a silent one reaches the client's bound.
 */
const CLIENT_TIMEOUT_MARGIN_MS = 2_000;

interface PgBounds {
  connectTimeoutMs: number;
  /** Settings every connection of the pool starts with (libpq's `options`). */
  startup?: string;
  /** Null: statements run unbounded (migrations, which may rebuild a large table). */
  statementTimeoutMs: number | null;
}

function openPostgres(url: string, poolSize: number, bounds: PgBounds): Kysely<Database> {
  // Without a bound a server that accepts and never answers holds a connect, and every caller
  // queued behind it, for as long as the TCP connection lasts. It is set on the client, not
  // the pool: the pool's would also cut callers waiting for a free connection, which a burst
  // (1,000 reserves on 10 connections) legitimately does for longer.
  class BoundedClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({
        ...config,
        connectionTimeoutMillis: bounds.connectTimeoutMs,
        ...(bounds.startup ? { options: bounds.startup } : {}),
      });
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: pgTypes,
    Client: BoundedClient,
    ...(bounds.statementTimeoutMs === null
      ? {}
      : {
          statement_timeout: bounds.statementTimeoutMs,
          query_timeout: bounds.statementTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS,
        }),
  });
  // An idle client dropped by the server (restart, failover, pg_terminate_backend) emits
  // 'error' on the pool; unheard, that would crash the process. The pool replaces the client,
  // and the next query that needs the server reports the outage as its own error.
  pool.on('error', () => {});
  // The pool hears a client only while it is idle: inside a transaction (checked out) a
  // server-side end (57P01 on a restart) is emitted on the client alone, and unheard it ended
  // the process (issue 24, point 11). The client's query fails with it, which is enough.
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** host:port/database of a postgres:// URL, never its password. */
function databaseName(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host || 'localhost'}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * Migrates on a connection of its own, bounded only in its connect: the first query shows at
 * once whether the server answers, and a long migration is not cut by the statement bound.
 */
async function migratePostgres(url: string, connectTimeoutMs: number): Promise<void> {
  const db = openPostgres(url, 1, { connectTimeoutMs, statementTimeoutMs: null });
  try {
    try {
      await sql`select 1`.execute(db);
    } catch (error) {
      const reason = (error as Error).message;
      throw new DatabaseUnavailableError(
        `cannot use the database at ${databaseName(url)}: ${
          /timeout/i.test(reason)
            ? `no answer within PG_CONNECT_TIMEOUT_MS (${connectTimeoutMs} ms)`
            : reason
        }`,
      );
    }
    await migrate(db as Kysely<unknown>, 'postgres');
  } finally {
    await db.destroy();
  }
}

export async function openStore(options: StoreOptions): Promise<Store> {
  const dialect: Dialect = options.databaseUrl ? 'postgres' : 'sqlite';
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULTS.pgConnectTimeoutMs;
  if (options.databaseUrl) await migratePostgres(options.databaseUrl, connectTimeoutMs);
  const sqlite = options.databaseUrl ? null : openSqlite(options.dataDir);
  const poolSize = options.poolSize ?? DEFAULTS.pgPoolSize;
  const bounds = {
    connectTimeoutMs,
    statementTimeoutMs: options.statementTimeoutMs ?? DEFAULTS.pgStatementTimeoutMs,
  };
  const db = sqlite ? sqlite.db : openPostgres(options.databaseUrl as string, poolSize, bounds);
  // Relaxed units (reservations' neighbours: kept results, key use, batch pages) on
  // connections that start with synchronous_commit off: a `SET LOCAL` in each of their
  // transactions was a round trip (issue 26), and a lone statement needs no transaction at
  // all. A pg pool connects only when used; a quarter of PG_POOL_SIZE, at least one.
  const relaxedDb = sqlite
    ? null
    : openPostgres(options.databaseUrl as string, Math.max(1, Math.ceil(poolSize / 4)), {
        ...bounds,
        startup: '-c synchronous_commit=off',
      });
  if (sqlite) {
    try {
      await migrate(db as Kysely<unknown>, dialect);
    } catch (error) {
      await db.destroy();
      sqlite.reader.close();
      await sqlite.closeLog();
      throw error;
    }
  }
  const readRows = sqlite
    ? <Row>(query: CompiledQuery<Row>) => {
        try {
          const statement = sqlite.reader.prepare(query.sql);
          return Promise.resolve(statement.all(query.parameters as unknown[]) as Row[]);
        } catch (error) {
          return Promise.reject(error);
        }
      }
    : async <Row>(query: CompiledQuery<Row>) => (await db.executeQuery(query)).rows;
  const version = sqlite?.reader.prepare('PRAGMA data_version').pluck();
  const group = sqlite ? new CommitGroup(db, sqlite.flushLog) : null;
  return {
    db,
    dialect,
    readRows,
    dataVersion: () => (version ? (version.get() as number) : null),
    // A relaxed unit does not wait for the server's log flush (what the embedded engine's
    // relaxed batches do); the next durable commit flushes it too.
    transact: (work, unitOptions) =>
      group
        ? group.run(work, unitOptions)
        : inTransaction(unitOptions?.durable === false && relaxedDb ? relaxedDb : db, work),
    runRelaxed: async <Row>(query: CompiledQuery<Row>) =>
      group
        ? group.run(async (trx) => (await trx.executeQuery(query)).rows, { durable: false })
        : (await (relaxedDb ?? db).executeQuery(query)).rows,
    close: async () => {
      await db.destroy();
      await relaxedDb?.destroy();
      sqlite?.reader.close();
      await sqlite?.closeLog();
    },
  };
}

/** Throws unless the database answers a trivial query (readiness). */
export async function checkDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
