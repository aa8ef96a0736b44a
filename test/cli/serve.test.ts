/**
 * `pagegrab serve` as an operator runs it (contract 5.33, 6): the first start on an empty
 * DATA_DIR prints a working key, a second server on the same DATA_DIR is refused, and
 * SIGTERM drains in-flight requests while refusing new connections.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type FixtureSite, PLAIN_PAGE, startFixtureSite } from '../helpers/fixture-site.js';
import { refused } from '../helpers/refused.js';
import { until } from '../helpers/until.js';
import { cliEnv, type ServeProcess, spawnServe } from './spawn-cli.js';

let site: FixtureSite;
const dirs: string[] = [];
const children: ServeProcess[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrab-serve-'));
  dirs.push(dir);
  return dir;
}

function serve(dataDir: string, extra: Record<string, string> = {}): ServeProcess {
  const child = spawnServe(cliEnv(dataDir, extra));
  children.push(child);
  return child;
}

/**
 * The key of the first-start banner, printed once the service listens: it may reach stdout
 * just after Fastify's "Server listening" line.
 */
async function keyOf(lines: string[]): Promise<string> {
  await until(() => lines.some((l) => l.startsWith('API key: ')), 30_000).catch(() => {});
  const line = lines.find((l) => l.startsWith('API key: '));
  assert.ok(line, `no "API key:" line in ${lines.length} lines`);
  return line.slice('API key: '.length);
}

before(async () => {
  site = await startFixtureSite();
});
after(async () => {
  for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
  await site.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * One DATA_DIR and its first server go through the tests in turn, as an operator's would: the
 * first start prints the key, a second server beside it is refused, SIGTERM drains it, and a
 * start after it prints no key. Each of those tests started a server of its own on a fresh
 * DATA_DIR first (seven starts in the file, four now: a start is seconds of CPU on a busy
 * machine). Whichever test comes first starts it (a test run alone by name still works).
 */
const sharedDir = tempDir();
let shared: { server: ServeProcess; url: string; key: string } | undefined;

async function firstServer(): Promise<{ server: ServeProcess; url: string; key: string }> {
  if (!shared) {
    const server = serve(sharedDir);
    const url = await server.listening;
    shared = { server, url, key: await keyOf(server.lines) };
  }
  return shared;
}

describe('pagegrab serve', () => {
  it('prints `API key: <key>` on its own line on an empty DATA_DIR, and that key works', async () => {
    const { server, url, key } = await firstServer();
    // The banner says the key is shown once, names the account and where to go.
    const banner = server.lines.join('\n');
    assert.match(banner, /shown once/);
    assert.match(banner, /Account: +default \(/);
    assert.ok(banner.includes(`Dashboard:  ${url}/`), banner);
    assert.ok(banner.includes(`API docs:   ${url}/docs`), banner);
    assert.match(key, /^\S+$/);
    assert.equal(server.lines.filter((l) => l.includes(key)).length, 1, 'the key is printed once');
    const response = await fetch(`${url}/api/account?api_key=${key}`);
    assert.equal(response.status, 200);
    const account = (await response.json()) as { credits: number; name: string };
    assert.ok(account.credits > 0);
  });

  it('refuses a second server on the same DATA_DIR with a clear message', async () => {
    const first = await firstServer();
    const second = serve(sharedDir);
    const { code, stderr } = await second.exited;
    assert.notEqual(code, 0);
    assert.match(stderr, /DATA_DIR .* is in use by another pagegrab process \(pid \d+\)/);
    // The first one is unharmed.
    assert.equal(first.server.child.exitCode, null);
    const health = await fetch(`${first.url}/healthz`);
    assert.equal(health.status, 200);
  });

  it('on SIGTERM finishes an in-flight scrape with 200 and refuses new connections', async () => {
    const { server, url, key } = await firstServer();
    const port = Number(new URL(url).port);
    // The target holds the page until the test has seen the refusal: the request is in
    // flight for the whole drain, however slow the machine.
    let release: (() => void) | undefined;
    site.route('/held', (_req, res) => {
      release = () => res.writeHead(200, { 'content-type': 'text/html' }).end(PLAIN_PAGE);
    });
    const target = encodeURIComponent(site.url('/held'));
    let answered = false;
    const inFlight = fetch(`${url}/api/scraper?api_key=${key}&url=${target}`).then(async (r) => {
      answered = true;
      return { status: r.status, body: await r.text() };
    });
    await until(() => release !== undefined, 30_000);
    server.child.kill('SIGTERM');
    await until(() => refused(port), 30_000);
    assert.equal(answered, false, 'the in-flight request is still open at the refusal');
    release?.();
    const answer = await inFlight;
    assert.equal(answer.status, 200);
    assert.match(answer.body, /Fixture page/);
    const { code } = await server.exited;
    assert.equal(code, 0);
  });

  it('prints no key on a second start of the same DATA_DIR', async () => {
    // The DATA_DIR's first server, stopped (by the drain above, or here).
    const first = (await firstServer()).server;
    if (first.child.exitCode === null && first.child.signalCode === null) {
      first.child.kill('SIGTERM');
    }
    assert.equal((await first.exited).code, 0);
    const second = serve(sharedDir);
    await second.listening;
    assert.ok(!second.lines.some((l) => l.startsWith('API key:')));
    second.child.kill('SIGTERM');
    assert.equal((await second.exited).code, 0);
  });

  it('stops with a message naming the variable when a setting is bad', async () => {
    const server = serve(tempDir(), { PORT: 'eighty' });
    const { code, stderr } = await server.exited;
    assert.notEqual(code, 0);
    assert.match(stderr, /PORT must be an integer, got "eighty"/);
    assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  });
});
