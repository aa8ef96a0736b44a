/**
 * `pagegrab accounts ...` as an operator types it (contract 5.33, 6), against a DATA_DIR that
 * a running service shares: create --json, credit, rotate-key (the old key stops working at
 * once), list (no key, no key hash).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { type RunningService, startService } from '../../src/main.js';
import { cliEnv, runCli } from './spawn-cli.js';

let dataDir: string;
let service: RunningService;
let env: NodeJS.ProcessEnv;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-cli-'));
  env = cliEnv(dataDir, { LOG_LEVEL: 'silent' });
  service = await startService(loadConfig({ ...env, PATH: process.env.PATH }));
});
after(async () => {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function account(key: string) {
  const response = await fetch(`${service.url}/api/account`, { headers: { 'X-API-Key': key } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface Created {
  id: string;
  name: string;
  credits: number;
  apiKey: string;
  webhookSecret: string;
}

describe('pagegrab accounts', () => {
  let created: Created;

  it('create --json prints one JSON line with id, name, credits, apiKey, webhookSecret', async () => {
    const { code, stdout } = await runCli(
      ['accounts', 'create', '--name', 'acme', '--credits', '250', '--json'],
      env,
    );
    assert.equal(code, 0);
    const lines = stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    created = JSON.parse(lines[0] as string) as Created;
    assert.deepEqual(Object.keys(created), ['id', 'name', 'credits', 'apiKey', 'webhookSecret']);
    assert.equal(created.name, 'acme');
    assert.equal(created.credits, 250);
    const seen = await account(created.apiKey);
    assert.equal(seen.status, 200);
    assert.equal(seen.body.id, created.id);
    assert.equal(seen.body.credits, 250);
  });

  it('create without --json prints the key on an `API key:` line', async () => {
    const { code, stdout } = await runCli(
      ['accounts', 'create', '--name', 'plain', '--credits', '1'],
      env,
    );
    assert.equal(code, 0);
    const key = /^API key: (\S+)$/m.exec(stdout)?.[1];
    assert.ok(key);
    assert.equal((await account(key)).status, 200);
  });

  it('credit adds (and removes) credits by name or id', async () => {
    const add = await runCli(['accounts', 'credit', 'acme', '50'], env);
    assert.equal(add.code, 0);
    assert.match(add.stdout, /300 credits/);
    const remove = await runCli(['accounts', 'credit', created.id, '-100'], env);
    assert.equal(remove.code, 0);
    assert.equal((await account(created.apiKey)).body.credits, 200);
  });

  it('credit refuses to take a balance below zero', async () => {
    const { code, stderr } = await runCli(['accounts', 'credit', 'acme', '-201'], env);
    assert.notEqual(code, 0);
    assert.match(stderr, /balance is 200/);
    assert.equal((await account(created.apiKey)).body.credits, 200);
  });

  it('rotate-key prints a new key; the old one stops working at once', async () => {
    const { code, stdout } = await runCli(['accounts', 'rotate-key', 'acme'], env);
    assert.equal(code, 0);
    const fresh = /^API key: (\S+)$/m.exec(stdout)?.[1];
    assert.ok(fresh);
    assert.notEqual(fresh, created.apiKey);
    assert.equal((await account(created.apiKey)).status, 403);
    assert.equal((await account(fresh)).status, 200);
    created.apiKey = fresh;
  });

  it('list shows the accounts with their webhook secrets but no key and no key hash', async () => {
    const { code, stdout } = await runCli(['accounts', 'list'], env);
    assert.equal(code, 0);
    assert.match(stdout, /acme/);
    assert.match(stdout, /credits=200/);
    assert.ok(stdout.includes(created.webhookSecret));
    const hash = createHash('sha256').update(created.apiKey).digest('hex');
    assert.ok(!stdout.includes(created.apiKey));
    assert.ok(!stdout.includes(hash));
    assert.doesNotMatch(stdout, /[0-9a-f]{64}/, 'nothing that looks like a SHA-256');
    const json = await runCli(['accounts', 'list', '--json'], env);
    const rows = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(rows.some((r) => r.name === 'acme'));
    assert.doesNotMatch(json.stdout, /[0-9a-f]{64}|pgk_/);
  });

  it('an unknown account or subcommand is a usage error, exit 2', async () => {
    const unknown = await runCli(['accounts', 'credit', 'nobody', '5'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /No account named or with id "nobody"/);
    const bad = await runCli(['accounts', 'frobnicate'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Usage:/);
  });
});
