/**
 * HTTP/1.1 as written bytes: a raw socket to the service, so that malformed requests reach it
 * exactly as sent, and every answer on the connection is read back and counted (a server that
 * answers one request twice shows as two responses).
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
}

export interface RawExchange {
  responses: RawResponse[];
  /** Bytes after the last complete response (a truncated or unparsable answer). */
  leftover: string;
  /** The server closed the connection (false: the guard timeout ended it). */
  closed: boolean;
}

export interface RawOptions {
  /** Half-close after writing: the server sees the end of the request stream. */
  endAfterWrite?: boolean;
  /** Stop waiting after this long without the server closing. Default 10 s. */
  timeoutMs?: number;
  /**
   * Once a complete answer is in and the server keeps the connection open (keep-alive), wait
   * this long for anything more, then hang up. Default: wait for the server's close.
   */
  settleMs?: number;
}

/** Writes `bytes` to 127.0.0.1:port and reads until the server closes the connection. */
export function exchange(
  port: number,
  bytes: string | Buffer,
  options: RawOptions = {},
): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closedByServer = true;
    socket.setTimeout(options.timeoutMs ?? 10_000, () => {
      closedByServer = false;
      socket.destroy();
    });
    let settle: NodeJS.Timeout | undefined;
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (options.settleMs === undefined) return;
      const { responses, leftover } = parseResponses(Buffer.concat(chunks));
      if (responses.length === 0 || leftover !== '') return;
      clearTimeout(settle);
      settle = setTimeout(() => {
        closedByServer = false;
        socket.destroy();
      }, options.settleMs);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while a large request is still being written: what it answered
      // before counts.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(settle);
      const { responses, leftover } = parseResponses(Buffer.concat(chunks));
      resolve({ responses, leftover, closed: closedByServer });
    });
    socket.write(bytes);
    if (options.endAfterWrite) socket.end();
  });
}

/** Every complete response in `data`, in order; 1xx interim answers are skipped. */
export function parseResponses(data: Buffer): { responses: RawResponse[]; leftover: string } {
  const responses: RawResponse[] = [];
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const head = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3}) /.exec(head[0] ?? '')?.[1] ?? Number.NaN);
    if (Number.isNaN(status)) break;
    const headers = new Map<string, string>();
    for (const line of head.slice(1)) {
      const colon = line.indexOf(':');
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    let after = rest.subarray(end + 4);
    let body: Buffer;
    if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') {
      const unchunked = unchunk(after);
      if (!unchunked) break;
      [body, after] = unchunked;
    } else if (headers.has('content-length')) {
      const length = Number(headers.get('content-length'));
      if (after.length < length) break;
      body = after.subarray(0, length);
      after = after.subarray(length);
    } else if (status === 204 || status === 304 || status < 200) {
      body = Buffer.alloc(0);
    } else {
      // Delimited by the close.
      body = after;
      after = Buffer.alloc(0);
    }
    if (status >= 200) responses.push({ status, headers, body: body.toString('utf8') });
    rest = after;
  }
  return { responses, leftover: rest.toString('latin1') };
}

function unchunk(data: Buffer): [Buffer, Buffer] | null {
  const parts: Buffer[] = [];
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n');
    if (end < 0) return null;
    const size = Number.parseInt(rest.subarray(0, end).toString('latin1'), 16);
    if (Number.isNaN(size)) return null;
    rest = rest.subarray(end + 2);
    if (size === 0) {
      const trailerEnd = rest.indexOf('\r\n');
      return trailerEnd < 0 ? null : [Buffer.concat(parts), rest.subarray(trailerEnd + 2)];
    }
    if (rest.length < size + 2) return null;
    parts.push(rest.subarray(0, size));
    rest = rest.subarray(size + 2);
  }
}
