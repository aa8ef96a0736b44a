/**
 * `pagegrab serve` ends in every state (issue 24, point 10): a start that cannot listen exits
 * at once with one line and leaves nothing behind, and SIGTERM ends the process during
 * start-up and while a request that never finishes is in flight.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { type SilentServer, startSilentServer } from '../helpers/silent-database.js';
import { until } from '../helpers/until.js';
import { cliEnv, exitOf, type ServeProcess, spawnServe } from './spawn-cli.js';

/** Far longer than any of these exits takes; only a process that never ends reaches it. */

let site: FixtureSite;
let silent: SilentServer;
let taken: Server;
let takenPort: number;
const dirs: string[] = [];
const children: ServeProcess[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrab-stops-'));
  dirs.push(dir);
  return dir;
}

function serve(dataDir: string, extra: Record<string, string> = {}): ServeProcess {
  const child = spawnServe(cliEnv(dataDir, extra));
  children.push(child);
  return child;
}

/** Processes whose environment holds `mark`: the service and every Chromium it started. */
function processesMarked(mark: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(mark)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

function stderrLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.trim() !== '');
}

before(async () => {
  site = await startFixtureSite();
  silent = await startSilentServer();
  taken = createServer();
  takenPort = await new Promise<number>((resolve) => {
    taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port));
  });
});
after(async () => {
  for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
  await site.close();
  await silent.close();
  await new Promise((resolve) => taken.close(resolve));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * The three tests run at once: each has its own DATA_DIR, server and mark, and waits only for
 * events (an exit, a connection, an arrival; the guards are for hangs); one after the other,
 * each waited through a server's start while the others could have run.
 */
describe('pagegrab serve stops', { concurrency: true }, () => {
  it('exits 1 with one clear line when PORT is taken, leaving no Chromium and no DATA_DIR lock', async () => {
    const dir = tempDir();
    const mark = `PAGEGRAB_TEST_MARK_${randomBytes(6).toString('hex')}`;
    const server = serve(dir, { PORT: String(takenPort), [mark]: '1' });
    const { code, stderr } = await exitOf(server);
    assert.equal(code, 1);
    const lines = stderrLines(stderr);
    assert.equal(lines.length, 1, stderr);
    assert.match(
      lines[0] ?? '',
      new RegExp(`^pagegrab: cannot listen on 127\\.0\\.0\\.1:${takenPort} .*already in use`),
    );
    await until(() => processesMarked(mark).length === 0, 15_000).catch(() => {});
    assert.deepEqual(processesMarked(mark), [], 'a process the service started is still alive');
    assert.equal(existsSync(join(dir, 'pagegrab.lock')), false, 'the DATA_DIR lock is released');
    const second = serve(dir);
    await second.listening;
    second.child.kill('SIGTERM');
    assert.equal((await exitOf(second)).code, 0);
  });

  it('ends at once on SIGTERM while start-up waits for a database', async () => {
    const before = silent.accepted();
    const server = serve(tempDir(), {
      DATABASE_URL: `postgres://pagegrab@127.0.0.1:${silent.port}/pagegrab`,
      PG_CONNECT_TIMEOUT_MS: '600000',
    });
    await until(() => silent.accepted() > before, 30_000);
    server.child.kill('SIGTERM');
    const { code, stderr } = await exitOf(server);
    assert.equal(code, 0);
    assert.deepEqual(stderrLines(stderr), ['pagegrab: stopped by SIGTERM during start-up']);
  });

  it('ends on SIGTERM within the grace while a scrape that never finishes is in flight', async () => {
    const dir = tempDir();
    const server = serve(dir, { SHUTDOWN_GRACE_MS: '500' });
    const url = await server.listening;
    await until(() => server.lines.some((l) => l.startsWith('API key: ')), 30_000);
    const key = server.lines.find((l) => l.startsWith('API key: '))?.slice('API key: '.length);
    let arrived = false;
    site.route('/never', () => {
      arrived = true;
    });
    const target = encodeURIComponent(site.url('/never'));
    const inFlight = fetch(`${url}/api/scraper?api_key=${key}&url=${target}&timeout=120000`).then(
      (r) => r.status,
      () => 'no answer',
    );
    await until(() => arrived, 30_000);
    server.child.kill('SIGTERM');
    const { code } = await exitOf(server);
    assert.notEqual(code, null, 'the process exited rather than being killed');
    assert.equal(existsSync(join(dir, 'pagegrab.lock')), false, 'the DATA_DIR lock is released');
    assert.notEqual(await inFlight, 200);
  });
});
