/**
 * A PostgreSQL that accepts connections and never answers (issue 24, point 12): `serve`
 * fails in bounded time with one line, and a running node whose database falls silent answers
 * /readyz 503 and requests with a JSON error instead of hanging, and still stops on SIGTERM.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliEnv, exitOf, type ServeProcess, spawnServe } from '../cli/spawn-cli.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';
import {
  type SilenceableProxy,
  type SilentServer,
  startSilenceableProxy,
  startSilentServer,
} from '../helpers/silent-database.js';

/** Only a hang reaches these; every bound under test is a few seconds. */
const ANSWER_GUARD_MS = 30_000;

let silent: SilentServer;
const dirs: string[] = [];
const children: ServeProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];

function serve(extra: Record<string, string>): ServeProcess {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrab-silent-db-'));
  dirs.push(dir);
  const child = spawnServe(cliEnv(dir, extra));
  children.push(child);
  return child;
}

async function get(url: string): Promise<{ status: number; type: string; body: unknown }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(ANSWER_GUARD_MS) });
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, type, body: await response.json() };
}

before(async () => {
  silent = await startSilentServer();
});
after(async () => {
  for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
  await silent.close();
  for (const cleanup of cleanups) await cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a database that never answers', () => {
  it('stops `serve` at start with exit code 1 and one line naming the database, not its password', async () => {
    const server = serve({
      DATABASE_URL: `postgres://pagegrab:s3cret-pw@127.0.0.1:${silent.port}/pagegrab`,
      PG_CONNECT_TIMEOUT_MS: '500',
    });
    const { code, stderr } = await exitOf(server);
    assert.equal(code, 1);
    assert.deepEqual(
      stderr.split('\n').filter((line) => line.trim() !== ''),
      [
        `pagegrab: cannot use the database at 127.0.0.1:${silent.port}/pagegrab: ` +
          'no answer within PG_CONNECT_TIMEOUT_MS (500 ms)',
      ],
    );
  });

  it('makes a running node answer /readyz 503 and requests with a JSON error, and SIGTERM still ends it', {
    skip: pgSkipReason,
  }, async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const proxy: SilenceableProxy = await startSilenceableProxy(Number(new URL(database.url).port));
    cleanups.push(() => proxy.close());
    const proxied = new URL(database.url);
    proxied.port = String(proxy.port);
    const server = serve({
      DATABASE_URL: proxied.toString(),
      // Longer than /readyz's 2 s, so its own deadline is what answers it.
      PG_CONNECT_TIMEOUT_MS: '5000',
      PG_STATEMENT_TIMEOUT_MS: '1000',
      SHUTDOWN_GRACE_MS: '500',
    });
    const url = await server.listening;
    assert.equal((await get(`${url}/readyz`)).status, 200);

    proxy.silence();
    const ready = await get(`${url}/readyz`);
    assert.equal(ready.status, 503);
    assert.match(ready.type, /application\/json/);
    assert.deepEqual(
      { ...(ready.body as object), browser: null },
      {
        status: 'not ready',
        database: 'error: no answer within 2000 ms',
        browser: null,
        draining: false,
      },
    );

    // The key lookup needs the database: the request ends with the clean 503, not a hang.
    const request = await get(`${url}/api/account?api_key=pgk_${'0'.repeat(40)}`);
    // on a failure, the node's own account of the error says which one it did not map
    const errors = () => server.lines.filter((line) => /"level":(50|40)/.test(line)).join('\n');
    assert.equal(request.status, 503, `${JSON.stringify(request.body)}\n${errors()}`);
    assert.match(request.type, /application\/json/);
    assert.deepEqual(request.body, { error: 'Service is not ready: database unavailable' });

    // A request waiting on the silent database while the node drains.
    void fetch(`${url}/api/account?api_key=pgk_${'1'.repeat(40)}`).catch(() => {});
    server.child.kill('SIGTERM');
    const { code, signal } = await exitOf(server);
    assert.equal(signal, null, 'the process exited on its own');
    assert.notEqual(code, null);
  });
});
