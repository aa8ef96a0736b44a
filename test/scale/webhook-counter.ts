/**
 * A webhook receiver on loopback that counts deliveries per X-Request-Id and checks each
 * signature (contract 22) against the account's secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookCounter {
  url: string;
  /** Deliveries per request id. */
  counts: Map<string, number>;
  /** X-Scrape-Status of the last delivery per request id. */
  outcomes: Map<string, string>;
  /** Deliveries whose signature did not verify. */
  badSignatures: number;
  /** Resolves once `ids` have all been delivered at least once, or rejects after `ms`. */
  waitFor(ids: string[], ms: number): Promise<void>;
  close(): Promise<void>;
}

function verify(secret: string, timestamp: string, body: Buffer, header: string): boolean {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
  const expected = Buffer.from(`sha256=${mac}`);
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export async function startWebhookCounter(secret: string): Promise<WebhookCounter> {
  const counts = new Map<string, number>();
  const outcomes = new Map<string, string>();
  const counter: WebhookCounter = {
    url: '',
    counts,
    outcomes,
    badSignatures: 0,
    async waitFor(ids, ms) {
      const deadline = Date.now() + ms;
      while (ids.some((id) => !counts.has(id))) {
        if (Date.now() > deadline) {
          const missing = ids.filter((id) => !counts.has(id)).length;
          throw new Error(`${missing} of ${ids.length} webhooks not delivered in ${ms} ms`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise((done) => server.close(() => done())),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = String(req.headers['x-request-id'] ?? '');
      const ok = verify(
        secret,
        String(req.headers['x-webhook-timestamp'] ?? ''),
        Buffer.concat(chunks),
        String(req.headers['x-webhook-signature'] ?? ''),
      );
      if (!ok) counter.badSignatures += 1;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      outcomes.set(id, String(req.headers['x-scrape-status'] ?? ''));
      res.writeHead(200, { 'content-length': 0 });
      res.end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  counter.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return counter;
}
