/**
 * Which source files a plain scrape runs through (issue 27, point 6): the files of src/ whose
 * code ran while the service answered one GET /api/scraper?url=… (render=false, html) of a
 * small loopback page. Measured, not read off the imports: V8's precise coverage (call
 * counts) of this process, reset after a first scrape (so start-up and first-use loading are
 * left out) and taken after a second one (and the kept result's write behind it); the files
 * that also ran in an idle window of 2 s before it are left out (none should: the job queues'
 * polls are set to wait out the run).
 *   node --import tsx bench/plain-scrape-files.ts [--list]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAccount } from '../src/accounts/account-store.js';
import { loadConfig } from '../src/config.js';
import { startService } from '../src/main.js';

const { values } = parseArgs({ options: { list: { type: 'boolean', default: false } } });
const root = join(import.meta.dirname, '..');

const site = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(
    '<!doctype html><html><head><title>t</title></head><body><p>hello</p></body></html>',
  );
});
await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
const page = `http://127.0.0.1:${(site.address() as AddressInfo).port}/page`;

const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-files-'));
const running = await startService(
  loadConfig({
    PATH: process.env.PATH,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_NETWORKS: 'true',
    // The job queues' polls are not the scrape's: they wait out the measurement.
    JOB_POLL_MS: '60000',
    SCHEDULE_POLL_MS: '60000',
  }),
);
const { apiKey } = await createAccount(running.store.db, {
  name: 'files',
  credits: 100,
  concurrencyLimit: 4,
});

async function scrape(): Promise<void> {
  const response = await fetch(`${running.url}/api/scraper?url=${encodeURIComponent(page)}`, {
    headers: { 'X-API-Key': apiKey },
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`scrape answered ${response.status}`);
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
type Coverage = Awaited<ReturnType<typeof takeCoverage>>;
async function takeCoverage() {
  return (await session.post('Profiler.takePreciseCoverage')).result;
}
/** The files of src/ with a function that ran since the last take, and those functions. */
function ranIn(result: Coverage): Map<string, string[]> {
  const ran = new Map<string, string[]>();
  for (const script of result) {
    if (!script.url.startsWith('file:')) continue;
    const path = relative(root, fileURLToPath(script.url));
    const called = script.functions.filter((f) => f.ranges[0]?.count).map((f) => f.functionName);
    if (path.startsWith('src/') && called.length > 0) ran.set(path, called);
  }
  return ran;
}
const settle = () => new Promise((done) => setTimeout(done, 300));

await scrape();
await settle(); // the kept result is written behind the answer
await takeCoverage(); // resets the counts
// An idle window first: what runs without any request (the job queues' polls) is left out.
await new Promise((done) => setTimeout(done, 2_000));
const idle = ranIn(await takeCoverage());
await scrape();
await settle();
const ran = ranIn(await takeCoverage());
await session.post('Profiler.stopPreciseCoverage');

const files = [...ran.keys()].filter((path) => !idle.has(path)).sort();
const folders = new Set(files.map((path) => path.slice(0, path.lastIndexOf('/'))));
if (values.list) {
  for (const path of files) console.log(`${path}: ${[...new Set(ran.get(path))].join(', ')}`);
}
console.log(`${files.length} files in ${folders.size} folders`);
console.log(`left out, they ran while idle too: ${[...idle.keys()].sort().join(', ')}`);

await running.close();
site.close();
rmSync(dataDir, { recursive: true, force: true });
