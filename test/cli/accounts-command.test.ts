/**
 * `pagegrab accounts ...` as an operator types it (contract 5.33, 6), against a DATA_DIR that
 * a running service shares: create --json, credit, rotate-key (the old key stops working at
 * once), list (no key, no key hash, webhook secrets only when asked), names unique, and
 * every failure one line without a stack (issue 30).
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

  it('credit refuses to take a balance below zero, in one line, exit 1', async () => {
    const { code, stderr } = await runCli(['accounts', 'credit', 'acme', '-201'], env);
    assert.equal(code, 1);
    assert.equal(stderr, 'pagegrab: Cannot remove 201 credits: the balance is 200\n');
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

  it('list hides webhook secrets unless --show-secrets, and never shows a key or its hash', async () => {
    const { code, stdout } = await runCli(['accounts', 'list'], env);
    assert.equal(code, 0);
    assert.match(stdout, /acme {2}credits=200$/m);
    assert.ok(!stdout.includes(created.webhookSecret));
    assert.doesNotMatch(stdout, /whsec_/);
    const shown = await runCli(['accounts', 'list', '--show-secrets'], env);
    assert.equal(shown.code, 0);
    assert.ok(shown.stdout.includes(`webhookSecret=${created.webhookSecret}`));
    const hash = createHash('sha256').update(created.apiKey).digest('hex');
    for (const out of [stdout, shown.stdout]) {
      assert.ok(!out.includes(created.apiKey));
      assert.ok(!out.includes(hash));
      assert.doesNotMatch(out, /[0-9a-f]{64}/, 'nothing that looks like a SHA-256');
    }
  });

  it('list --json is one JSON array, secrets only with --show-secrets', async () => {
    const hidden = await runCli(['accounts', 'list', '--json'], env);
    assert.equal(hidden.code, 0);
    assert.equal(hidden.stdout.trim().split('\n').length, 1);
    const rows = JSON.parse(hidden.stdout) as Record<string, unknown>[];
    assert.ok(Array.isArray(rows));
    const acme = rows.find((r) => r.name === 'acme');
    assert.deepEqual(Object.keys(acme ?? {}), [
      'id',
      'name',
      'credits',
      'concurrencyLimit',
      'createdAt',
    ]);
    assert.doesNotMatch(hidden.stdout, /[0-9a-f]{64}|pgk_|whsec_/);
    const shown = await runCli(['accounts', 'list', '--json', '--show-secrets'], env);
    const withSecrets = JSON.parse(shown.stdout) as Record<string, unknown>[];
    assert.equal(withSecrets.find((r) => r.name === 'acme')?.webhookSecret, created.webhookSecret);
  });

  it('credit --json and rotate-key --json print one JSON object', async () => {
    const credit = await runCli(['accounts', 'credit', 'acme', '5', '--json'], env);
    assert.equal(credit.code, 0, credit.stderr);
    assert.deepEqual(JSON.parse(credit.stdout), { id: created.id, name: 'acme', credits: 205 });
    const rotated = await runCli(['accounts', 'rotate-key', 'acme', '--json'], env);
    assert.equal(rotated.code, 0, rotated.stderr);
    const body = JSON.parse(rotated.stdout) as { id: string; name: string; apiKey: string };
    assert.deepEqual(Object.keys(body), ['id', 'name', 'apiKey']);
    assert.equal((await account(body.apiKey)).status, 200);
    created.apiKey = body.apiKey;
  });

  it('a second account of a taken name is refused in one line, exit 1, no stack', async () => {
    const again = await runCli(['accounts', 'create', '--name', 'acme', '--credits', '1'], env);
    assert.equal(again.code, 1);
    assert.equal(
      again.stderr,
      'pagegrab: An account named "acme" already exists; names are unique: choose another\n',
    );
    assert.equal(again.stdout, '');
    // The name still means the one account: credit, rotate-key and schedules take it.
    const credit = await runCli(['accounts', 'credit', 'acme', '1'], env);
    assert.equal(credit.code, 0, credit.stderr);
    const schedules = await runCli(['schedules', 'list', '--account', 'acme', '--json'], env);
    assert.equal(schedules.code, 0, schedules.stderr);
    assert.deepEqual(JSON.parse(schedules.stdout), []);
  });

  it('an unknown account or subcommand is a usage error, exit 2', async () => {
    const unknown = await runCli(['accounts', 'credit', 'nobody', '5'], env);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /No account named or with id "nobody"/);
    assert.doesNotMatch(unknown.stderr, /\n\s+at /);
    const bad = await runCli(['accounts', 'frobnicate'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^pagegrab: unknown accounts command "frobnicate"\nUsage:/);
    const huge = await runCli(['accounts', 'credit', 'acme', '99999999999999999999'], env);
    assert.equal(huge.code, 2);
    assert.match(huge.stderr, /^pagegrab: delta must be a whole number/);
  });
});
