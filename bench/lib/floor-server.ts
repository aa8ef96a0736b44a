/**
 * The floor's minimal servers (bench/floor-scrape.ts): each a rung that adds one part the
 * service cannot do without to the rung below, and none imports pagegrab code but g:
 *   a  Fastify 5, GET /api/scraper?url= answering the page fetched with undici
 *   b  + the API key (api_key=) looked up in an in-memory map (401 without it)
 *   c  + one durable SQLite write per request through better-sqlite3: a ledger row and the
 *      balance's update, group-committed as src/store/commit-group.ts does (units of one turn
 *      in one transaction under synchronous=NORMAL, then the write-ahead log synced off the
 *      thread, shared by commits, the answer after the sync; WAL, synchronous=FULL otherwise)
 *   d  c's write through Kysely (compiled once, as the service's prepared queries are)
 *   e  d + one pino info line per request to a file
 *   f  e + a request record inserted in the same commit
 *   g  f + what the defaults add that no design can leave out, each in its cheapest form: the
 *      page decoded and checked by the service's own block check (block-signatures.ts, the one
 *      pagegrab import here: a pure function), the record's day rollup upserted in the same
 *      commit, and the kept result content-addressed (its SHA-256; compressed with Brotli
 *      quality 0 and stored only when those bytes are new, so the bench's one page is
 *      compressed once) named by a row in the same commit
 *   c-pg, d-pg  c and d on PostgreSQL (BENCH_DATABASE_URL): one autocommitted statement per
 *      request (a CTE: the ledger row and the balance), as the service's one-off end is
 *   node --import tsx bench/lib/servers.ts floor-<rung> DATA_DIR
 */
import { createHash, randomUUID } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import { type CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { Agent, request } from 'undici';
import { blockSignature, ContentMemory } from '../../src/scrape/engines/block-signatures.js';

type Rung = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'c-pg' | 'd-pg';
/** A write of one request: resolves once it is durable. */
type Work = () => Promise<void> | void;
type Write = (accountId: string, requestId: string, url: string, body: Buffer) => Promise<void>;

const SCHEMA = [
  'create table if not exists accounts (id text primary key, credits bigint not null check (credits >= 0))',
  'create table if not exists ledger (id bigint primary key, account_id text not null, request_id text not null, delta bigint not null, created_at bigint not null)',
  'create table if not exists request_log (id text primary key, account_id text not null, url text not null, status integer not null, credits bigint not null, created_at bigint not null)',
];
/** Rung g's tables (SQLite only). */
const DEFAULTS_SCHEMA = [
  'create table if not exists request_days (account_id text not null, day bigint not null, host text not null, status integer not null, requests bigint not null, credits bigint not null, primary key (account_id, day, host, status))',
  'create table if not exists result_blobs (hash text primary key, body blob not null)',
  'create table if not exists request_results (request_id text primary key, account_id text not null, hash text not null, created_at bigint not null)',
];
const ACCOUNT = 'bench-account';

/** Units of one turn share a transaction; durable answers wait for one shared log sync. */
class FloorCommitGroup {
  private pending: { work: Work; done: () => void; fail: (e: unknown) => void }[] = [];
  private draining = false;
  private syncing: Promise<void> | null = null;
  private nextSync: Promise<void> | null = null;

  constructor(
    private readonly exec: (text: string) => Promise<unknown> | unknown,
    private readonly syncLog: () => Promise<void>,
  ) {}

  run(work: Work): Promise<void> {
    return new Promise((done, fail) => {
      this.pending.push({ work, done, fail });
      if (this.draining) return;
      this.draining = true;
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, 64);
      try {
        await this.exec('PRAGMA synchronous = NORMAL');
        await this.exec('BEGIN');
        for (const unit of batch) await unit.work();
        await this.exec('COMMIT');
      } catch (error) {
        await this.exec('ROLLBACK');
        for (const unit of batch) unit.fail(error);
        continue;
      } finally {
        await this.exec('PRAGMA synchronous = FULL');
      }
      this.sync().then(
        () => {
          for (const unit of batch) unit.done();
        },
        (error: unknown) => {
          for (const unit of batch) unit.fail(error);
        },
      );
    }
    this.draining = false;
  }

  /** A sync begun after the caller's commit: the running one may predate it. */
  private sync(): Promise<void> {
    if (!this.syncing) return this.startSync();
    this.nextSync ??= this.syncing.then(() => {
      this.nextSync = null;
      return this.startSync();
    });
    return this.nextSync;
  }

  private startSync(): Promise<void> {
    const running = this.syncLog().finally(() => {
      if (this.syncing === running) this.syncing = null;
    });
    this.syncing = running;
    return running;
  }
}

function openSqlite(dataDir: string) {
  const file = join(dataDir, 'floor.db');
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  for (const statement of [...SCHEMA, ...DEFAULTS_SCHEMA]) database.exec(statement);
  database.prepare('insert or ignore into accounts values (?, ?)').run(ACCOUNT, 1_000_000_000);
  let wal: Promise<FileHandle> | null = null;
  const syncLog = async () => {
    wal ??= open(`${file}-wal`, 'r');
    await (await wal).datasync();
  };
  return { database, syncLog };
}

let ledgerId = Date.now() * 1000;

/** c: better-sqlite3's own statements. f adds the record. */
function rawSqliteWrite(dataDir: string, withRecord: boolean): Write {
  const { database, syncLog } = openSqlite(dataDir);
  const insertLedger = database.prepare('insert into ledger values (?, ?, ?, ?, ?)');
  const charge = database.prepare('update accounts set credits = credits - ? where id = ?');
  const insertRecord = database.prepare('insert into request_log values (?, ?, ?, ?, ?, ?)');
  const group = new FloorCommitGroup((text) => database.exec(text), syncLog);
  return (accountId, requestId, url) =>
    group.run(() => {
      const now = Date.now();
      insertLedger.run(ledgerId++, accountId, requestId, -1, now);
      charge.run(1, accountId);
      if (withRecord) insertRecord.run(requestId, accountId, url, 200, 1, now);
    });
}

interface FloorDatabase {
  request_days: {
    account_id: string;
    day: number;
    host: string;
    status: number;
    requests: number;
    credits: number;
  };
  result_blobs: { hash: string; body: Buffer };
  request_results: { request_id: string; account_id: string; hash: string; created_at: number };
  accounts: { id: string; credits: number };
  ledger: { id: number; account_id: string; request_id: string; delta: number; created_at: number };
  request_log: {
    id: string;
    account_id: string;
    url: string;
    status: number;
    credits: number;
    created_at: number;
  };
}

/** Kysely's queries, compiled once per text with placeholders filled per request. */
function compiled(db: Kysely<FloorDatabase>) {
  const insertLedger = db
    .insertInto('ledger')
    .values({ id: 0, account_id: '', request_id: '', delta: -1, created_at: 0 })
    .compile();
  const charge = db
    .updateTable('accounts')
    .set({ credits: sql`credits - ${1}` })
    .where('id', '=', '')
    .compile();
  const insertRecord = db
    .insertInto('request_log')
    .values({ id: '', account_id: '', url: '', status: 200, credits: 1, created_at: 0 })
    .compile();
  const bind = <R>(query: CompiledQuery<R>, parameters: unknown[]): CompiledQuery<R> => ({
    ...query,
    parameters,
  });
  const upsertDay = db
    .insertInto('request_days')
    .values({ account_id: '', day: 0, host: '', status: 200, requests: 1, credits: 1 })
    .onConflict((oc) =>
      oc.columns(['account_id', 'day', 'host', 'status']).doUpdateSet({
        requests: sql`requests + 1`,
        credits: sql`credits + 1`,
      }),
    )
    .compile();
  const insertBlob = db.insertInto('result_blobs').values({ hash: '', body: Buffer.alloc(0) });
  const insertResult = db
    .insertInto('request_results')
    .values({ request_id: '', account_id: '', hash: '', created_at: 0 })
    .compile();
  return {
    insertLedger,
    charge,
    insertRecord,
    upsertDay,
    insertBlob: insertBlob.compile(),
    insertResult,
    bind,
  };
}

const DAY_MS = 86_400_000;

/** g's kept result: the bytes' hash, and their compressed copy the first time they are seen. */
function keptResult(known: Set<string>, body: Buffer): { hash: string; stored: Buffer | null } {
  const hash = createHash('sha256').update(body).digest('hex');
  if (known.has(hash)) return { hash, stored: null };
  known.add(hash);
  const stored = brotliCompressSync(body, {
    params: {
      [zlibConstants.BROTLI_PARAM_QUALITY]: 0,
      [zlibConstants.BROTLI_PARAM_LGWIN]: 18,
      [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  return { hash, stored };
}

/**
 * d, e, f: the same write through Kysely's SQLite dialect, in the group's transaction; g adds
 * the day rollup and the kept result to it.
 */
function kyselySqliteWrite(dataDir: string, withRecord: boolean, withDefaults = false): Write {
  const { database, syncLog } = openSqlite(dataDir);
  const db = new Kysely<FloorDatabase>({ dialect: new SqliteDialect({ database }) });
  const q = compiled(db);
  const group = new FloorCommitGroup((text) => db.executeQuery(sql.raw(text).compile(db)), syncLog);
  const known = new Set<string>();
  return (accountId, requestId, url, body) => {
    const kept = withDefaults ? keptResult(known, body) : null;
    return group.run(async () => {
      const now = Date.now();
      await db.executeQuery(q.bind(q.insertLedger, [ledgerId++, accountId, requestId, -1, now]));
      await db.executeQuery(q.bind(q.charge, [1, accountId]));
      if (withRecord)
        await db.executeQuery(q.bind(q.insertRecord, [requestId, accountId, url, 200, 1, now]));
      if (!kept) return;
      const day = now - (now % DAY_MS);
      const host = new URL(url).host;
      await db.executeQuery(q.bind(q.upsertDay, [accountId, day, host, 200, 1, 1]));
      if (kept.stored) await db.executeQuery(q.bind(q.insertBlob, [kept.hash, kept.stored]));
      await db.executeQuery(q.bind(q.insertResult, [requestId, accountId, kept.hash, now]));
    });
  };
}

async function openPg(): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
  for (const statement of SCHEMA) await pool.query(statement);
  await pool.query('insert into accounts values ($1, $2) on conflict do nothing', [
    ACCOUNT,
    1_000_000_000,
  ]);
  return pool;
}

const PG_CHARGE =
  'with l as (insert into ledger values ($1, $2, $3, -1, $4)) update accounts set credits = credits - 1 where id = $2';

async function rawPgWrite(): Promise<Write> {
  const pool = await openPg();
  return async (accountId, requestId) => {
    await pool.query({
      name: 'charge',
      text: PG_CHARGE,
      values: [ledgerId++, accountId, requestId, Date.now()],
    });
  };
}

async function kyselyPgWrite(): Promise<Write> {
  const pool = await openPg();
  const db = new Kysely<FloorDatabase>({ dialect: new PostgresDialect({ pool }) });
  const text = sql.raw(PG_CHARGE).compile(db);
  return async (accountId, requestId) => {
    await db.executeQuery({
      ...text,
      parameters: [ledgerId++, accountId, requestId, Date.now()],
    });
  };
}

export async function startFloorServer(rung: Rung, dataDir: string): Promise<string> {
  const agent = new Agent({ connections: 64 });
  const keys = new Map([['floor-key', ACCOUNT]]);
  const write: Write | null =
    rung === 'c'
      ? rawSqliteWrite(dataDir, false)
      : rung === 'd' || rung === 'e'
        ? kyselySqliteWrite(dataDir, false)
        : rung === 'f'
          ? kyselySqliteWrite(dataDir, true)
          : rung === 'g'
            ? kyselySqliteWrite(dataDir, true, true)
            : rung === 'c-pg'
              ? await rawPgWrite()
              : rung === 'd-pg'
                ? await kyselyPgWrite()
                : null;
  const log =
    rung === 'e' || rung === 'f' || rung === 'g'
      ? pino(pino.destination(join(dataDir, 'requests.log')))
      : null;
  const memory = new ContentMemory();
  const app = Fastify({ logger: false });
  app.get('/api/scraper', async (req, reply) => {
    const query = req.query as { url?: string; api_key?: string };
    const accountId = rung === 'a' ? ACCOUNT : keys.get(query.api_key ?? '');
    if (!accountId) return reply.code(401).send({ error: 'Invalid API key.' });
    const answer = await request(query.url ?? '', { dispatcher: agent });
    const body = Buffer.from(await answer.body.arrayBuffer());
    if (rung === 'g') {
      const html = new TextDecoder().decode(body);
      const page = { status: answer.statusCode, html, contentType: 'text/html' };
      if (blockSignature(page, { memory, url: query.url ?? '' })) {
        return reply.code(502).send({ error: 'blocked' });
      }
    }
    const requestId = randomUUID();
    if (write) await write(accountId, requestId, query.url ?? '', body);
    log?.info({ requestId, url: query.url, status: 200, credits: 1 }, 'scrape');
    return reply.type('text/html; charset=utf-8').send(body);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}
