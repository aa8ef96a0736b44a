/**
 * A webhook receiver on 127.0.0.1 for delivery tests: records every POST (headers and raw
 * body) and answers with a scripted status (a queue of statuses per path, then a default).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  status: number;
  at: number;
  /** False when the sender hung up before the answer (it never saw the status). */
  answered: boolean;
}

export interface WebhookReceiver {
  origin: string;
  url(path: string): string;
  deliveries: Delivery[];
  /** The next answers for a path, in order; after them the default (200). */
  script(path: string, statuses: number[]): void;
  /** Delay before answering each POST, in ms. Default 0. */
  setDelay(ms: number): void;
  /** POSTs received and not answered yet (waiting out the delay). */
  inFlight(): number;
  /** Resolves once `predicate` holds over the deliveries, or rejects after `timeoutMs`. */
  waitFor(predicate: (d: Delivery[]) => boolean, timeoutMs?: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const scripts = new Map<string, number[]>();
  const waiters = new Set<() => void>();
  let delay = 0;
  let inFlight = 0;
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
      const answer = () => {
        inFlight--;
        deliveries.push({
          path,
          headers: req.headers,
          body: Buffer.concat(chunks),
          status,
          at: Date.now(),
          answered: !hungUp && !res.destroyed,
        });
        res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
        for (const wake of waiters) wake();
      };
      if (delay > 0) setTimeout(answer, delay);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    deliveries,
    script(path, statuses) {
      scripts.set(path, [...statuses]);
    },
    setDelay(ms) {
      delay = ms;
    },
    inFlight: () => inFlight,
    waitFor(predicate, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
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
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
