/**
 * The WebSocket watch of a crawl or batch at its status path (/v2/crawl/{id},
 * /v2/batch/scrape/{id}; /v1/crawl/{id} for the v1 SDK's crawlUrlAndWatch), as Firecrawl's
 * crawl-status-ws speaks it: a `catchup` with the status and the documents so far, a
 * `document` per page as it ends, and the end as the close frame's reason (`{"type":"done"}`,
 * or `{"type":"error","error":…}` with Firecrawl's codes: 3000 unauthorized, 1008 not found,
 * 1011 unexpected). The SDKs send the API key as the WebSocket subprotocol.
 *
 * On v2 paths the end is also a message before the close: the v2 SDK's watcher() reads
 * messages only and, closed without one, polls the status route for ever when the key or id
 * was bad. The v1 SDK's watcher reads the close reason only, and would see a message twice.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FirecrawlVersion } from '../../firecrawl/scrape-request.js';
import type { WatchSnapshot } from '../../jobs/batches/batch-watch.js';
import { httpError } from '../http-errors.js';
import { keyOf } from '../plugins/auth.js';
import type { ApiServices } from '../services.js';
import { JOB_NOT_FOUND } from './batch-answers.js';
import { firecrawlAnswerOf } from './firecrawl-errors.js';

/** What this file needs of a `ws` socket (the package ships no types of its own). */
export interface WatchSocket {
  readonly readyState: number;
  send(data: string, callback: (error?: Error) => void): void;
  close(code: number, reason: string): void;
  on(event: 'close', listener: () => void): void;
}

type EndMessage = { type: 'done'; data?: unknown } | { type: 'error'; error: string };

const OPEN = 1;
/** RFC 6455 bounds a close frame's reason to 123 bytes. */
const MAX_REASON_BYTES = 123;

function send(socket: WatchSocket, message: unknown): Promise<void> {
  if (socket.readyState !== OPEN) return Promise.resolve();
  return new Promise((resolve) => socket.send(JSON.stringify(message), () => resolve()));
}

function reasonOf(message: EndMessage): string {
  if (message.type === 'done') return '{"type":"done"}';
  let error = message.error;
  let reason = JSON.stringify({ type: 'error', error });
  while (Buffer.byteLength(reason) > MAX_REASON_BYTES && error.length > 0) {
    error = error.slice(0, -8);
    reason = JSON.stringify({ type: 'error', error: `${error}…` });
  }
  return reason;
}

function statusBody(snapshot: WatchSnapshot) {
  return {
    success: true,
    status: snapshot.status,
    completed: snapshot.completed,
    total: snapshot.total,
    creditsUsed: snapshot.creditsUsed,
    expiresAt: new Date(snapshot.expiresAt).toISOString(),
    ...(snapshot.error ? { error: snapshot.error } : {}),
  };
}

/** Why an ended batch ended, when not completed. */
function endError(snapshot: WatchSnapshot | null): string | null {
  if (!snapshot) return JOB_NOT_FOUND;
  if (snapshot.status === 'completed') return null;
  if (snapshot.error) return snapshot.error;
  return snapshot.status === 'cancelled' ? 'The job was cancelled.' : 'The job failed.';
}

/** The key: the SDKs' subprotocol, else wherever the REST routes read it. */
function watchKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['sec-websocket-protocol'];
  const protocol = typeof header === 'string' ? header.split(',')[0]?.trim() : undefined;
  return keyOf(request) ?? (protocol || undefined);
}

/** The REST route's authentication, left to the watch on an upgrade (it answers in frames). */
export function authenticateUnlessWatch(
  authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
) {
  return (request: FastifyRequest, reply: FastifyReply) =>
    request.ws ? Promise.resolve() : authenticate(request, reply);
}

export function jobWatchHandler(version: FirecrawlVersion, services: ApiServices) {
  return async (socket: WatchSocket, request: FastifyRequest) => {
    const abort = new AbortController();
    socket.on('close', () => abort.abort());
    const end = async (code: number, message: EndMessage) => {
      if (version === 'v2') await send(socket, message);
      if (socket.readyState === OPEN) socket.close(code, reasonOf(message));
    };
    try {
      const key = watchKeyOf(request);
      if (!key) throw httpError('API_KEY_REQUIRED');
      const account = await services.keys.find(key);
      if (!account) throw httpError('INVALID_API_KEY');
      const { id } = request.params as { id: string };
      const watch = await services.batches.watch(account.id, id, { signal: abort.signal });
      if (!watch) return await end(1008, { type: 'error', error: JOB_NOT_FOUND });
      for await (const event of watch) {
        if (event.type === 'catchup') {
          await send(socket, {
            type: 'catchup',
            data: { ...statusBody(event.snapshot), data: event.data },
          });
        } else if (event.type === 'document') {
          await send(socket, { type: 'document', data: event.document });
        } else {
          const error = endError(event.snapshot);
          if (error !== null || !event.snapshot) {
            return await end(1000, { type: 'error', error: error ?? JOB_NOT_FOUND });
          }
          // The documents went one by one; the end carries the figures only.
          return await end(1000, {
            type: 'done',
            data: { ...statusBody(event.snapshot), data: [] },
          });
        }
      }
    } catch (error) {
      const answer = firecrawlAnswerOf(error);
      if (answer && answer.status === 401) {
        return await end(3000, { type: 'error', error: answer.error });
      }
      if (answer) return await end(1011, { type: 'error', error: answer.error });
      request.log.error({ err: error }, 'watch failed');
      return await end(1011, { type: 'error', error: 'An unexpected error occurred.' });
    }
  };
}
