/**
 * Which failures mean "the database cannot be reached right now" (a restart, a failover, a
 * network cut, a locked embedded file), as opposed to a bug or a refused statement. The one
 * place that decides it: such a failure answers 503 with Retry-After and is never charged
 * (issue 24, points 11 and 13); callers retry, and so do the job workers.
 */
import { type AppError, appErrorWithHeaders } from '../errors.js';

/**
 * PostgreSQL SQLSTATEs: admin shutdown, crash shutdown, cannot connect now (starting or
 * stopping), too many connections, query canceled (the statement timeout). Class 08 is
 * "connection exception" as a whole.
 */
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/** Socket failures while connecting to, or talking with, the server. */
const SOCKET_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** node-postgres reports these as plain Errors, without a code. */
const PG_CLIENT_TEXTS = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/**
 * node-postgres's own connect bound (connectionTimeoutMillis on the client) ends a connection
 * the server never answered with exactly this text: a query that needs a new connection
 * while the server is silent. Matched whole, as the words are too common to look for inside
 * other messages.
 */
const PG_CONNECT_TIMEOUT_TEXT = 'timeout expired';

/** How long a caller should wait before trying again, in seconds. */
const RETRY_AFTER_SECONDS = '5';

/** How deep to follow `cause` and AggregateError's `errors` (Node's happy eyeballs). */
const MAX_DEPTH = 4;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > MAX_DEPTH) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (PG_UNAVAILABLE.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (SOCKET_UNAVAILABLE.has(code)) return true;
    // better-sqlite3: still locked by another writer after busy_timeout (also _SNAPSHOT etc.).
    if (code.startsWith('SQLITE_BUSY')) return true;
  }
  if (PG_CLIENT_TEXTS.some((text) => error.message.includes(text))) return true;
  if (error.message === PG_CONNECT_TIMEOUT_TEXT) return true;
  if (
    error instanceof AggregateError &&
    error.errors.some((e) => isDatabaseUnavailable(e, depth + 1))
  ) {
    return true;
  }
  return isDatabaseUnavailable(error.cause, depth + 1);
}

/** The answer to a database that cannot be reached: 503, Retry-After, not charged. */
export function databaseUnavailable(): AppError {
  return appErrorWithHeaders(
    'NOT_READY',
    { 'Retry-After': RETRY_AFTER_SECONDS },
    'database unavailable',
  );
}

/** The 503 for a database failure, or null for any other error. */
export function asDatabaseUnavailable(error: unknown): AppError | null {
  return isDatabaseUnavailable(error) ? databaseUnavailable() : null;
}
