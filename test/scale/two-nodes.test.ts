/**
 * Two service processes on one PostgreSQL behave as one service: credits and the per-account
 * concurrency limit hold across both nodes, and SIGTERM drains a node without dropping the
 * requests it is serving.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { deliveryJobId, scrapeJobId } from '../../src/jobs/webhooks/job-kinds.js';
import { openStore } from '../../src/store/db.js';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';
import { refused } from '../helpers/refused.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { createAccountCli, type ServiceNode, startNode } from './service-node.js';

/** Runs `count` tasks, at most `width` at a time. */
async function pool<T>(count: number, width: number, task: (i: number) => Promise<T>) {
  const results: T[] = new Array(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

async function scrape(node: ServiceNode, apiKey: string, target: string): Promise<number> {
  const query = new URLSearchParams({ api_key: apiKey, url: target });
  const response = await fetch(`${node.url}/api/scraper?${query}`);
  await response.arrayBuffer();
  return response.status;
}

/** A scrape with webhook_url: the node answers at once with the request id. */
async function enqueue(
  node: ServiceNode,
  apiKey: string,
  target: string,
  hook: string,
  extra: Record<string, string> = {},
) {
  const query = new URLSearchParams({ api_key: apiKey, url: target, webhook_url: hook, ...extra });
  const response = await fetch(`${node.url}/api/scraper?${query}`);
  const body = (await response.json()) as { requestId?: string; error?: string };
  assert.equal(response.status, 200, JSON.stringify(body));
  assert.ok(body.requestId);
  return body.requestId;
}

async function balance(node: ServiceNode, apiKey: string): Promise<number> {
  const response = await fetch(`${node.url}/api/account`, { headers: { 'X-API-Key': apiKey } });
  assert.equal(response.status, 200);
  return ((await response.json()) as { credits: number }).credits;
}

/**
 * A fixture endpoint that holds each request `ms` (or until `release()`) and records the most
 * held at once.
 */
function heldEndpoint(site: FixtureSite, path: string, ms: number) {
  const waiting = new Set<() => void>();
  const counter = {
    now: 0,
    max: 0,
    /** Answers every request held now (later ones still wait `ms`). */
    release: () => {
      for (const answer of waiting) answer();
    },
  };
  site.route(path, (_req, res) => {
    counter.now += 1;
    counter.max = Math.max(counter.max, counter.now);
    const answer = () => {
      waiting.delete(answer);
      clearTimeout(timer);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>held</title><p>held</p>');
    };
    const timer = setTimeout(answer, ms);
    waiting.add(answer);
    res.once('close', () => {
      waiting.delete(answer);
      clearTimeout(timer);
      counter.now -= 1;
    });
  });
  return counter;
}

describe('two nodes on one PostgreSQL', { skip: pgSkipReason }, () => {
  let site: FixtureSite;
  let database: { url: string; drop(): Promise<void> };
  let nodes: ServiceNode[] = [];

  before(async () => {
    site = await startFixtureSite();
    database = await createTestDatabase();
    // Both start on the empty database at once: their migrations must not collide.
    nodes = await Promise.all([startNode(database.url), startNode(database.url)]);
  });

  after(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await site?.close();
    await database?.drop();
  });

  test('200 scrapes over both nodes on 100 credits give exactly 100 successes and a balance of 0', async () => {
    const account = await createAccountCli(database.url, 100, 10);
    const statuses = await pool(200, 8, (i) =>
      scrape(nodes[i % 2] as ServiceNode, account.apiKey, site.url(`/page?i=${i}`)),
    );
    assert.deepEqual(tally(statuses), { 200: 100, 402: 100 });
    assert.equal(await balance(nodes[0] as ServiceNode, account.apiKey), 0);
    assert.equal(await balance(nodes[1] as ServiceNode, account.apiKey), 0);
  });

  test('the concurrency limit of 10 holds across nodes: 30 at once never run more than 10', async () => {
    const account = await createAccountCli(database.url, 1000, 10);
    // Held until every one of the 30 is either at the target or answered: on a slow machine
    // a fixed hold could end before the last requests arrive, which then rightly get a slot.
    const held = heldEndpoint(site, '/held', 120_000);
    site.resetCounters();
    let answered = 0;
    // 15 per node: a per-node limit would let 20 through.
    const all = Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        scrape(nodes[i % 2] as ServiceNode, account.apiKey, site.url(`/held?i=${i}`)).finally(
          () => {
            answered += 1;
          },
        ),
      ),
    );
    await until(() => answered + held.now >= 30, 90_000).finally(() => held.release());
    const statuses = await all;
    const counts = tally(statuses);
    const ok = counts[200] ?? 0;
    assert.ok(held.max <= 10, `target saw ${held.max} requests at once`);
    assert.ok(ok >= 1 && ok <= 10, `${ok} succeeded`);
    assert.equal(ok + (counts[429] ?? 0), 30, `statuses: ${JSON.stringify(counts)}`);
    assert.equal(site.hits('/held'), ok, 'every 429 was refused before the target was asked');
    // The refused ones were not charged: 1 credit per success.
    assert.equal(await balance(nodes[0] as ServiceNode, account.apiKey), 1000 - ok);
  });

  /** What the database and the nodes say about the webhooks not delivered: for a failure report. */
  async function undelivered(ids: string[], counts: Map<string, number>): Promise<string> {
    const missing = ids.filter((id) => !counts.has(id));
    const store = await openStore({ databaseUrl: database.url, dataDir: '/nonexistent-unused' });
    try {
      const jobs = await store.db
        .selectFrom('jobs')
        .selectAll()
        .where(
          'id',
          'in',
          missing.flatMap((id) => [scrapeJobId(id), deliveryJobId(id)]),
        )
        .execute();
      const records = await store.db
        .selectFrom('requests')
        .select(['id', 'status', 'status_code', 'error', 'webhook'])
        .where('id', 'in', missing)
        .execute();
      const logs = nodes.map((node, i) => `node ${i}:\n${node.output().slice(-3000)}`);
      return [`missing: ${missing.join(', ')}`, JSON.stringify({ jobs, records }), ...logs].join(
        '\n',
      );
    } finally {
      await store.close();
    }
  }

  test('100 webhook jobs enqueued over both nodes are each delivered exactly once', async () => {
    const account = await createAccountCli(database.url, 1000, 10);
    const hook = await startWebhookReceiver({ secret: account.webhookSecret });
    try {
      const ids = await pool(100, 8, (i) =>
        enqueue(
          nodes[i % 2] as ServiceNode,
          account.apiKey,
          site.url(`/page?w=${i}`),
          hook.url('/hook'),
        ),
      );
      await hook.waitForRequests(ids, 60_000).catch(async (error: Error) => {
        throw new Error(`${error.message}\n${await undelivered(ids, hook.counts)}`);
      });
      await new Promise((r) => setTimeout(r, 1000)); // a second delivery would show up by now
      assert.equal(hook.counts.size, 100);
      const twice = [...hook.counts.values()].filter((n) => n !== 1).length;
      assert.equal(twice, 0, `${twice} jobs delivered more than once`);
      assert.equal(hook.badSignatures(), 0);
      assert.deepEqual(new Set(hook.outcomes.values()), new Set(['success']));
      assert.equal(await balance(nodes[0] as ServiceNode, account.apiKey), 900);
    } finally {
      await hook.close();
    }
  });

  test('kill -9 of a node mid-run loses no webhook job and charges none twice', async () => {
    // A limit above both nodes' webhook scrape concurrency: the slots the dead node held (freed
    // only when they expire, see test/scrape/admission/account-slots-pg.test.ts) do not stall the survivor.
    // Its leases run out after 2 s, so the survivor takes its jobs over quickly. It starts
    // while the command line creates the account (one after the other, seconds of this test).
    const starting = startNode(database.url, { JOB_LEASE_MS: '2000' });
    starting.catch(() => {}); // awaited below: not an unhandled rejection meanwhile
    const account = await createAccountCli(database.url, 1000, 64).catch(async (error) => {
      await (await starting.catch(() => null))?.stop();
      throw error;
    });
    const doomed = await starting;
    const hook = await startWebhookReceiver({ secret: account.webhookSecret });
    try {
      heldEndpoint(site, '/job', 400);
      const pair = [nodes[0] as ServiceNode, doomed];
      const ids = await pool(100, 16, (i) =>
        enqueue(
          pair[i % 2] as ServiceNode,
          account.apiKey,
          site.url(`/job?k=${i}`),
          hook.url('/hook'),
        ),
      );
      while (hook.counts.size < 20) await new Promise((r) => setTimeout(r, 50));
      doomed.signal('SIGKILL');
      assert.equal((await doomed.exited).signal, 'SIGKILL');
      const deliveredBeforeKill = hook.counts.size;
      assert.ok(deliveredBeforeKill < 100, 'the kill came mid-run');
      await hook.waitForRequests(ids, 90_000);
      // At least once: only a job the dead node was delivering at the kill may arrive twice.
      const repeats = [...hook.counts.values()].filter((n) => n > 1).length;
      assert.ok(repeats <= 10, `${repeats} jobs delivered more than once`);
      assert.equal(hook.badSignatures(), 0);
      // Each success charged once, each failure (a budget run out under load) refunded.
      const successes = [...hook.outcomes.values()].filter((o) => o === 'success').length;
      assert.ok(successes >= 50, `${successes} of 100 succeeded`);
      assert.equal(await balance(nodes[0] as ServiceNode, account.apiKey), 1000 - successes);
    } finally {
      await doomed.stop();
      await hook.close();
    }
  });

  test('a node that gets SIGTERM finishes the scrapes it is serving, then exits 0', async () => {
    const account = await createAccountCli(database.url, 100, 10);
    // The target holds the three pages until the node is draining.
    const held: ServerResponse[] = [];
    site.route('/drain', (_req, res) => held.push(res));
    const victim = nodes[1] as ServiceNode;
    const inFlight = Array.from({ length: 3 }, (_, i) =>
      scrape(victim, account.apiKey, site.url(`/drain?i=${i}`)),
    );
    await until(() => held.length === 3, 30_000);
    victim.signal('SIGTERM');
    await until(() => refused(Number(new URL(victim.url).port)), 30_000);
    for (const res of held) res.writeHead(200, { 'content-type': 'text/html' }).end('<p>held</p>');
    // The drain finished every request it was serving, then the node exited cleanly.
    assert.deepEqual(await Promise.all(inFlight), [200, 200, 200]);
    const exit = await victim.exited;
    assert.equal(exit.code, 0, victim.output());
    // The other node still serves the same account: 3 charged, 97 left.
    assert.equal(await balance(nodes[0] as ServiceNode, account.apiKey), 97);
  });
});
