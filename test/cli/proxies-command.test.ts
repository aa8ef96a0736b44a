/**
 * `pagegrab proxies`: PROXIES_FILE's proxies with their state, read from the running
 * service's /metrics; never a credential; no service there is a failure naming the address.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { listProxies, runProxiesCommand } from '../../src/cli/proxies-command.js';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../helpers/free-port.js';
import { startService, type TestService } from '../helpers/service.js';
import { cliEnv, runCli } from './spawn-cli.js';

let dir: string;
let proxiesFile: string;
let service: TestService;
let deadPort: number;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagegrab-proxies-cli-'));
  proxiesFile = join(dir, 'proxies.json');
  deadPort = await freePort();
  writeFileSync(
    proxiesFile,
    JSON.stringify([
      { url: `http://alice:s3cret@127.0.0.1:${deadPort}`, type: 'datacenter' },
      { url: 'http://127.0.0.1:9', type: 'residential', country: 'de' },
    ]),
  );
  service = await startService({ env: { PROXIES_FILE: proxiesFile } });
});

after(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const configFor = (port: string) =>
  loadConfig({ DATA_DIR: dir, HOST: '127.0.0.1', PORT: port, PROXIES_FILE: proxiesFile });

test('lists each proxy with its state from the running service, benched after failures', async () => {
  // Three scrapes through the dead datacenter proxy (the only one) bench it.
  for (let i = 0; i < 3; i += 1) {
    const query = new URLSearchParams({ api_key: service.apiKey, url: 'http://127.0.0.1:1/' });
    const answer = await fetch(`${service.baseUrl}/api/scraper?${query}`);
    assert.equal(answer.status, 502);
  }
  const port = new URL(service.baseUrl).port;
  const rows = await listProxies(configFor(port));
  assert.deepEqual(rows, [
    {
      proxy: `datacenter/any/127.0.0.1:${deadPort}`,
      type: 'datacenter',
      country: null,
      state: 'benched',
      requests: 3,
      failures: 3,
      blocks: 0,
    },
    {
      proxy: 'residential/DE/127.0.0.1:9',
      type: 'residential',
      country: 'DE',
      state: 'active',
      requests: 0,
      failures: 0,
      blocks: 0,
    },
  ]);
  const lines: string[] = [];
  await runProxiesCommand([], configFor(port), (line) => lines.push(line));
  assert.match(lines[0] ?? '', /^PROXY\s+TYPE\s+COUNTRY\s+STATE\s+REQUESTS\s+FAILURES\s+BLOCKS$/);
  assert.match(lines[1] ?? '', /datacenter\s+-\s+benched\s+3\s+3\s+0$/);
  assert.doesNotMatch(lines.join('\n'), /alice|s3cret/);
});

test('without a running service the command fails, naming the address it tried', async () => {
  const port = await freePort();
  await assert.rejects(
    runProxiesCommand([], configFor(String(port)), () => {}),
    {
      name: 'CliError',
      message: `the service is unreachable at http://127.0.0.1:${port} (ECONNREFUSED): start it with \`pagegrab serve\`, or set HOST and PORT to where it listens`,
    },
  );
});

test('the command line says so in one line and exits 1', async () => {
  const port = await freePort();
  const env = cliEnv(dir, { PORT: String(port), PROXIES_FILE: proxiesFile, LOG_LEVEL: 'silent' });
  const { code, stdout, stderr } = await runCli(['proxies', '--json'], env);
  assert.equal(code, 1);
  assert.equal(stdout, '');
  assert.equal(
    stderr,
    `pagegrab: the service is unreachable at http://127.0.0.1:${port} (ECONNREFUSED): start it with \`pagegrab serve\`, or set HOST and PORT to where it listens\n`,
  );
});
