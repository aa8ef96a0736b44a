/**
 * `pagegrab schedules list` as an operator types it, against a DATA_DIR a running service
 * shares: every schedule with its state, next due time and last run, as text or one JSON array.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createAccount } from '../../src/accounts/account-store.js';
import { loadConfig } from '../../src/config.js';
import { type RunningService, startService } from '../../src/main.js';
import { workflowClient } from '../helpers/workflow-http.js';
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

test('schedules list shows each schedule, its state and next due time (--json: one array)', async () => {
  const { apiKey } = await createAccount(service.store.db, {
    name: 'ops',
    credits: 10,
    concurrencyLimit: 2,
  });
  const call = workflowClient(service.url, apiKey);
  const ids: string[] = [];
  for (const name of ['daily', 'paused']) {
    const created = await call<{ id: string }>('POST', '/api/workflow/create', {
      body: { name, config: { url: 'http://127.0.0.1:9/' } },
    });
    ids.push(created.body.id);
  }
  await call('PUT', `/api/workflow/${ids[0]}/schedule`, {
    body: { cron: '0 9 * * *', timezone: 'Europe/Berlin' },
  });
  await call('PUT', `/api/workflow/${ids[1]}/schedule`, {
    body: { cron: '@hourly', enabled: false },
  });

  const json = await runCli(['schedules', 'list', '--account', 'ops', '--json'], env);
  assert.equal(json.code, 0, json.stderr);
  // One JSON document, an array, as every list the command line prints.
  assert.equal(json.stdout.trim().split('\n').length, 1);
  const rows = JSON.parse(json.stdout) as Record<string, unknown>[];
  assert.equal(rows.length, 2);
  const daily = rows.find((row) => row.workflowId === ids[0]);
  const paused = rows.find((row) => row.workflowId === ids[1]);
  assert.equal(daily?.state, 'running');
  assert.equal(daily?.cron, '0 9 * * *');
  assert.equal(daily?.workflowName, 'daily');
  assert.ok(Date.parse(String(daily?.nextRunAt)) > Date.now());
  assert.equal(paused?.state, 'paused');
  assert.equal(paused?.nextRunAt, null);

  const text = await runCli(['schedules', 'list'], env);
  assert.equal(text.code, 0, text.stderr);
  assert.match(
    text.stdout,
    new RegExp(`${ids[0]}  daily  "0 9 \\* \\* \\*" Europe/Berlin  running  next=\\d{4}-`),
  );
  assert.match(text.stdout, new RegExp(`${ids[1]}  paused  "@hourly" UTC  paused  next=-`));

  const wrong = await runCli(['schedules', 'show'], env);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /pagegrab schedules list/);
});
