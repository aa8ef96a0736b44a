/**
 * Where the request log goes by default: stdout, in batches. pino's own default issues one
 * asynchronous write per line, a write(2) and its callback on the event loop for every
 * request; this one waits for LOG_BATCH_BYTES of lines (or LOG_FLUSH_MS, so a quiet node's
 * last lines still come out) and writes them in one call.
 *
 * What it can lose: on a normal exit (a signal's drain, an error that ends the process) pino
 * writes what is queued synchronously; a `kill -9` loses the lines still queued (at most
 * LOG_FLUSH_MS of them), log lines only: charges and request records are committed to the
 * database before the answer.
 */
import pino, { type DestinationStream } from 'pino';

/** Lines are written once this many bytes have queued (about 20 request lines). */
export const LOG_BATCH_BYTES = 4096;
/** ...or this long after the last write, whichever comes first. */
export const LOG_FLUSH_MS = 250;
/**
 * Past this many queued bytes (a reader of stdout that stopped reading), further lines are
 * dropped rather than held in memory without bound.
 */
export const MAX_QUEUED_LOG_BYTES = 16 * 1024 * 1024;

/** A batched pino destination writing to the file descriptor `fd` (default stdout). */
export function logDestination(fd = 1): DestinationStream {
  return pino.destination({
    dest: fd,
    sync: false,
    minLength: LOG_BATCH_BYTES,
    periodicFlush: LOG_FLUSH_MS,
    maxLength: MAX_QUEUED_LOG_BYTES,
  });
}
