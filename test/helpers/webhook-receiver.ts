/**
 * A webhook receiver on 127.0.0.1 for delivery tests and benches: records every POST (headers
 * and raw body), answers with a scripted status (a queue of statuses per path, then 200), and
 * tallies deliveries per X-Request-Id. Given the account's secret, it also checks each
 * signature (contract 22) with the service's own verifier.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../src/jobs/webhooks/signature.js';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  status: number;
  at: number;
  /** False when the sender hung up before the answer (it never saw the status). */
  answered: boolean;
}

/** A scripted "status" that drops the connection instead of answering. */
export const DROP = 0;

export interface WebhookReceiverOptions {
  /** The account's webhook secret: deliveries whose signature fails are counted. */
  secret?: string;
}

export interface WebhookReceiver {
  origin: string;
  url(path: string): string;
  deliveries: Delivery[];
  /** Deliveries per X-Request-Id. */
  counts: Map<string, number>;
  /** X-Scrape-Status of the last delivery per X-Request-Id. */
  outcomes: Map<string, string>;
  /** Deliveries whose signature did not verify against the secret (0 without one). */
  badSignatures(): number;
  /**
   * The next answers for a path, in order; after them the default (200). `DROP` hangs up
   * without an answer (what a receiver's keep-alive timeout does to a reused socket).
   */
  script(path: string, statuses: number[]): void;
  /** Delay before answering each POST, in ms. Default 0. */
  setDelay(ms: number): void;
  /** POSTs received and not answered yet (waiting out the delay). */
  inFlight(): number;
  /** Resolves once `predicate` holds over the deliveries, or rejects after `timeoutMs`. */
  waitFor(predicate: (d: Delivery[]) => boolean, timeoutMs?: number): Promise<Delivery[]>;
  /** Resolves once every request id has been delivered at least once. */
  waitForRequests(ids: string[], timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  options: WebhookReceiverOptions = {},
): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const counts = new Map<string, number>();
  const outcomes = new Map<string, string>();
  const scripts = new Map<string, number[]>();
  const waiters = new Set<() => void>();
  let delay = 0;
  let inFlight = 0;
  let badSignatures = 0;

  const tally = (headers: IncomingHttpHeaders, body: Buffer): void => {
    const id = String(headers['x-request-id'] ?? '');
    counts.set(id, (counts.get(id) ?? 0) + 1);
    outcomes.set(id, String(headers['x-scrape-status'] ?? ''));
    if (options.secret === undefined) return;
    const timestamp = String(headers['x-webhook-timestamp'] ?? '');
    const signature = String(headers['x-webhook-signature'] ?? '');
    if (!verifyWebhook(options.secret, timestamp, body, signature)) badSignatures += 1;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    inFlight++;
    let hungUp = false;
    res.on('close', () => {
      if (!res.writableFinished) hungUp = true;
    });
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const status = scripts.get(path)?.shift() ?? 200;
      const body = Buffer.concat(chunks);
      const answer = () => {
        inFlight--;
        const drop = status === DROP;
        deliveries.push({
          path,
          headers: req.headers,
          body,
          status,
          at: Date.now(),
          answered: !drop && !hungUp && !res.destroyed,
        });
        tally(req.headers, body);
        if (drop) req.socket.destroy();
        else res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
        for (const wake of waiters) wake();
      };
      if (delay > 0) setTimeout(answer, delay);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  const waitFor: WebhookReceiver['waitFor'] = (predicate, timeoutMs = 15_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate(deliveries)) return;
        cleanup();
        resolve(deliveries);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `webhook receiver: condition not met in ${timeoutMs} ms (${deliveries.length} deliveries)`,
          ),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  return {
    origin,
    url: (path) => `${origin}${path}`,
    deliveries,
    counts,
    outcomes,
    badSignatures: () => badSignatures,
    script(path, statuses) {
      scripts.set(path, [...statuses]);
    },
    setDelay(ms) {
      delay = ms;
    },
    inFlight: () => inFlight,
    waitFor,
    async waitForRequests(ids, timeoutMs) {
      const missing = () => ids.filter((id) => !counts.has(id));
      await waitFor(() => missing().length === 0, timeoutMs).catch(() => {
        throw new Error(
          `${missing().length} of ${ids.length} webhooks not delivered in ${timeoutMs} ms`,
        );
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
