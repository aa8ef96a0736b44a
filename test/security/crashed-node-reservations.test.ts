/**
 * A node killed mid-scrape gives its reservation back when it starts again (issue 24, point
 * 5): an account with 1 credit, a scrape of a page that never answers, kill -9, restart, and
 * the account scrapes again well within the scrape's timeout + 60 s (the guard, not a timing
 * assertion; before, it got 402 for the reaper's 10 minutes). On the embedded engine (the
 * data-dir lock: every held reservation is dead) and on PostgreSQL (the node's NODE_NAME).
 * Its nodes run the build when current, else through tsx (helpers/pagegrab-command.ts).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createAccount } from '../../src/accounts/account-store.js';
import { openStore } from '../../src/store/db.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';
import { until } from '../helpers/until.js';
import { type ServeProcess, spawnServe } from '../jobs/webhooks/serve-process.js';

const SCRAPE_TIMEOUT_MS = 10_000;
/** The bound: the scrape's own timeout plus 60 s. */
const GUARD_MS = SCRAPE_TIMEOUT_MS + 60_000;

/** Arrivals per held path: each test holds a path of its own (they run at once). */
const heldArrivals = new Map<string, number>();
const pages = createServer((request, response) => {
  if (request.url?.startsWith('/held')) {
    // Never answers: the node dies while this page loads.
    heldArrivals.set(request.url, (heldArrivals.get(request.url) ?? 0) + 1);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html' });
  response.end('<html><head><title>t</title></head><body><p>page</p></body></html>');
});
const pageUrl = (path: string) =>
  `http://127.0.0.1:${(pages.address() as AddressInfo).port}${path}`;

before(() => new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve)));
after(() => {
  pages.closeAllConnections();
  return new Promise<void>((resolve) => pages.close(() => resolve()));
});

function scrape(node: ServeProcess, apiKey: string, path: string): Promise<number> {
  const query = new URLSearchParams({
    api_key: apiKey,
    url: pageUrl(path),
    timeout: String(SCRAPE_TIMEOUT_MS),
  });
  return fetch(`${node.url}/api/scraper?${query}`).then(
    async (response) => {
      await response.arrayBuffer();
      return response.status;
    },
    () => 0,
  );
}

/** An account with 1 credit, written straight into the node's database. */
async function oneCreditAccount(env: Record<string, string>): Promise<string> {
  const store = await openStore({
    databaseUrl: env.DATABASE_URL ?? null,
    dataDir: env.DATA_DIR as string,
  });
  try {
    const { apiKey } = await createAccount(store.db, {
      name: 'crash',
      credits: 1,
      concurrencyLimit: 2,
    });
    return apiKey;
  } finally {
    await store.close();
  }
}

async function killMidScrapeAndRestart(env: Record<string, string>, held: string): Promise<void> {
  const account = { apiKey: await oneCreditAccount(env) };
  const first = await spawnServe(env);
  let second: ServeProcess | null = null;
  try {
    const cut = scrape(first, account.apiKey, held);
    await until(() => (heldArrivals.get(held) ?? 0) > 0, 30_000);
    await first.kill();
    assert.equal(await cut, 0, 'the killed node never answered');

    second = await spawnServe(env);
    const node = second;
    await until(async () => (await scrape(node, account.apiKey, '/page')) === 200, GUARD_MS);
    assert.equal(await scrape(node, account.apiKey, '/page'), 402, 'its one credit is spent now');
  } finally {
    if (first.child.exitCode === null && first.child.signalCode === null) await first.kill();
    await second?.stop();
  }
}

/**
 * The two tests run at once: each has its own DATA_DIR or database, its own held path and its
 * own nodes, and every wait is for an event (a guard, not a timing assertion); one after the
 * other, each waited through two node starts and a kill while the other could have run.
 */
describe('a node killed mid-scrape', { concurrency: true }, () => {
  it('gives the reservation back at its next start (embedded database)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-crash-'));
    try {
      await killMidScrapeAndRestart(
        {
          DATA_DIR: dataDir,
          ALLOW_PRIVATE_NETWORKS: 'true',
          LOG_LEVEL: 'warn',
        },
        '/held-embedded',
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('gives the reservation back at its next start (PostgreSQL)', {
    skip: pgSkipReason,
  }, async () => {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-crash-'));
    try {
      await killMidScrapeAndRestart(
        {
          DATABASE_URL: database.url,
          DATA_DIR: dataDir,
          // Its name across the restart (spawnServe picks a new port each time).
          NODE_NAME: `crash-test-${randomBytes(4).toString('hex')}`,
          ALLOW_PRIVATE_NETWORKS: 'true',
          LOG_LEVEL: 'warn',
        },
        '/held-postgres',
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    }
  });
});
