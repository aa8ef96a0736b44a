/**
 * Reads a response body in full, bounded: at most `limit` bytes on the wire and at most
 * `limit` bytes once decompressed (a small gzip can inflate to gigabytes).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { appError, isAppError } from '../../../errors.js';

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotli = promisify(zlib.brotliDecompress);

export function bodyTooLarge(limit: number): Error {
  return appError('FETCH_FAILED', `response body exceeds ${limit} bytes`);
}

/**
 * Collects the stream; destroys it and throws FETCH_FAILED past the limit. Read by its
 * events, not `for await`: the async iterator costs promises per chunk on every fetched page.
 */
export function readLimited(
  body: NodeJS.ReadableStream & { destroy(error?: Error): void },
  limit: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    body.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        body.removeAllListeners('data');
        reject(bodyTooLarge(limit));
        // Stays listened to: destroying may emit an error after the answer was given.
        body.destroy();
        return;
      }
      chunks.push(chunk);
    });
    body.on('error', reject);
    body.once('end', () => resolve(Buffer.concat(chunks, total)));
  });
}

/** A zlib stream starts with CMF/FLG whose 16-bit value is a multiple of 31 and method 8. */
function hasZlibHeader(bytes: Buffer): boolean {
  const [cmf = 0, flg = 0] = bytes;
  return (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}

async function decodeOne(bytes: Buffer, coding: string, limit: number): Promise<Buffer> {
  // Lenient like browsers: a truncated stream yields what was decoded so far.
  const options = { maxOutputLength: limit, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return gunzip(bytes, options);
    case 'deflate':
      // Servers send both zlib-wrapped and raw DEFLATE under this name.
      return hasZlibHeader(bytes) ? inflate(bytes, options) : inflateRaw(bytes, options);
    case 'br':
      return brotli(bytes, {
        maxOutputLength: limit,
        finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      });
    case 'identity':
    case '':
      return bytes;
    default:
      throw appError('FETCH_FAILED', `unsupported content encoding ${coding}`);
  }
}

/** Undoes Content-Encoding (applied in order, so undone in reverse). */
export async function decompress(
  bytes: Buffer,
  contentEncoding: string | undefined,
  limit: number,
): Promise<Buffer> {
  if (!contentEncoding) return bytes;
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
  let out = bytes;
  for (const coding of codings) {
    if (out.length === 0) break;
    try {
      out = await decodeOne(out, coding, limit);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        throw bodyTooLarge(limit);
      if (isAppError(error)) throw error;
      throw appError('FETCH_FAILED', `could not decode ${coding} body`);
    }
  }
  return out;
}
