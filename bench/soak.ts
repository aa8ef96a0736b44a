/**
 * Soak: one service node (a real `serve` process) under steady mixed traffic — plain,
 * markdown, rendered, screenshots, webhooks, workflow runs, 5% garbage — against a loopback
 * fixture site. Reports requests served, 5xx, p50/p99 by kind, and memory after warm-up and
 * at the end, sampled alike: traffic paused, the warm-page pool filled to its cap, then a full
 * GC in the service (bench/lib/gc-on-signal.mjs, loaded by this harness only) before reading
 * its RSS and live heap, and Chromium's PSS by process. Passes with no 5xx, no transport
 * errors, every webhook delivered, growth ≤ 10% after warm-up (service RSS and live heap;
 * Chromium anon PSS) and a clean SIGTERM drain.
 *   node --import tsx bench/soak.ts [--minutes 10] [--rate 4] [--database-url postgres://…]
 *     [--snapshots DIR]   heap snapshots at warm-up and end: bench/lib/heap-diff.ts DIR/warmup… DIR/end…
 * Not part of npm test. Bounded: the run, then at most ~3 minutes of draining.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startFixtureSite } from '../test/helpers/fixture-site.js';
import { startWebhookReceiver } from '../test/helpers/webhook-receiver.js';
import { createAccountCli, startNode } from '../test/scale/service-node.js';
import { createMemoryProbe } from './lib/memory-probe.js';
import {
  browserStatus,
  compareSamples,
  describePool,
  describeSample,
  type MemorySample,
  sampleMemory,
} from './lib/soak-memory.js';
import { buildRequest, type Kind, pickKind, type SoakTargets } from './soak-traffic.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '4' },
    'database-url': { type: 'string' },
    /** A folder for heap snapshots of the service at warm-up and at the end (diff them with bench/lib/heap-diff.ts). */
    snapshots: { type: 'string' },
  },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);
/** Memory is compared from the end of warm-up: 1 minute, or a fifth of a shorter run. */
const warmupMs = Math.min(60_000, (minutes * 60_000) / 5);
/** Client-side bound on requests in flight (beyond it the tick is skipped and counted). */
const MAX_IN_FLIGHT = 48;
/** How long the fixture holds a fill render's page: long enough for the burst to overlap. */
const FILL_DELAY_MS = 2000;

const PARAGRAPH =
  '<p>Steady traffic keeps a service honest: leaks show up as slow growth, not as crashes.</p>';
const SECTION =
  '<h2>Section</h2><p>Text with <a href="/page">a link</a> and <code>code</code>.</p><ul><li>one</li><li>two</li></ul>';
const ARTICLE = `<!doctype html><html><head><meta charset="utf-8"><title>Soak article</title></head>
<body><nav><a href="/">Home</a> <a href="/page">Page</a></nav><main><article><h1>Soak article</h1>
${PARAGRAPH.repeat(3)}${SECTION.repeat(8)}</article></main><footer>Footer text</footer></body></html>`;

const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-soak-'));
const databaseUrl = values['database-url'] ?? null;
const site = await startFixtureSite();
site.html('/article', ARTICLE);
site.route('/slow', (_req, res) => {
  setTimeout(() => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(ARTICLE);
  }, FILL_DELAY_MS);
});
const account = await createAccountCli(databaseUrl, 1_000_000_000, 64, dataDir);
const hook = await startWebhookReceiver({ secret: account.webhookSecret });
const probe = createMemoryProbe();
const node = await startNode(databaseUrl, probe.env, dataDir);
const snapshotDir = values.snapshots ?? null;
if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });

/** A full GC in the service, then its memory and Chromium's (and a heap snapshot if asked). */
const memory = (snapshot?: string) =>
  sampleMemory(
    node.url,
    node.pid,
    probe,
    snapshotDir && snapshot ? join(snapshotDir, `${snapshot}.heapsnapshot`) : undefined,
  );

const created = await fetch(`${node.url}/api/workflow/create`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': account.apiKey },
  body: JSON.stringify({ name: 'soak', config: { url: site.url('/article'), markdown: true } }),
});
const workflowId = ((await created.json()) as { id: string }).id;
const targets: SoakTargets = {
  base: node.url,
  apiKey: account.apiKey,
  page: site.url('/page'),
  article: site.url('/article'),
  slow: site.url('/slow'),
  webhookUrl: hook.url('/hook'),
  workflowId,
};

const latencies = new Map<Kind, number[]>();
const statuses = new Map<Kind, Map<number, number>>();
const webhookIds: string[] = [];
let served = 0;
let serverErrors = 0;
let transportErrors = 0;
let unexpected = 0;
let skipped = 0;
let inFlight = 0;

async function one(kind: Kind, n: number): Promise<void> {
  const request = buildRequest(kind, targets, n, Math.random());
  const t0 = performance.now();
  let status = 0;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      ...(request.headers ? { headers: request.headers } : {}),
      signal: AbortSignal.timeout(130_000),
    });
    status = response.status;
    const body = Buffer.from(await response.arrayBuffer());
    if (kind === 'webhook' && status === 200) {
      webhookIds.push((JSON.parse(body.toString()) as { requestId: string }).requestId);
    }
  } catch {
    transportErrors += 1;
  }
  const ms = performance.now() - t0;
  served += status ? 1 : 0;
  if (status >= 500) serverErrors += 1;
  const expectedOk = kind === 'garbage' ? status >= 400 && status < 500 : status === 200;
  if (status && !expectedOk) unexpected += 1;
  latencies.set(kind, [...(latencies.get(kind) ?? []), ms]);
  const byStatus = statuses.get(kind) ?? new Map<number, number>();
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  statuses.set(kind, byStatus);
}

/**
 * Brings the service to the same state before each compared sample: no request in flight, and
 * the warm-page pool at its cap (a burst of as many concurrent renders as the pool has pages),
 * so the warm-up and the end samples hold the same number of Chromium pages.
 */
async function settle(): Promise<void> {
  await Promise.all(pending);
  const capacity = (await browserStatus(node.url)).capacity ?? 4;
  for (let attempt = 0; attempt < 3; attempt++) {
    await Promise.all(Array.from({ length: capacity }, () => one('fill', n++)));
    const deadline = Date.now() + 10_000;
    for (;;) {
      const b = await browserStatus(node.url);
      if ((b.idlePages ?? 0) >= capacity && b.pagesInUse === 0) return;
      if (Date.now() > deadline) {
        console.log(`settle: burst ${attempt + 1} left the pool short (${describePool(b)})`);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  console.log(
    `settle: pool not full after 3 bursts (${describePool(await browserStatus(node.url))})`,
  );
}

const atStart = await memory();
console.log(
  `soak: ${minutes} min at ${rate} req/s on ${node.url} (${databaseUrl ? 'PostgreSQL' : 'embedded'})`,
);
console.log(`start: ${describeSample(atStart)}`);
const t0 = Date.now();
const end = t0 + minutes * 60_000;
let afterWarmup: MemorySample | null = null;
const pending = new Set<Promise<void>>();
let n = 0;
let lastLog = t0;
while (Date.now() < end) {
  if (!afterWarmup && Date.now() - t0 >= warmupMs) {
    const paused = Date.now();
    await settle();
    const settled = Date.now();
    afterWarmup = await memory('warmup');
    console.log(
      `warm-up done (settled in ${settled - paused} ms, sampled in ${Date.now() - settled} ms): ${describeSample(afterWarmup)}`,
    );
    lastLog = Date.now();
  }
  if (inFlight >= MAX_IN_FLIGHT) skipped += 1;
  else {
    inFlight += 1;
    const p = one(pickKind(Math.random()), n++).finally(() => {
      inFlight -= 1;
      pending.delete(p);
    });
    pending.add(p);
  }
  if (Date.now() - lastLog >= 60_000) {
    lastLog = Date.now();
    const m = await memory(); // under traffic: a trend line, not a compared sample
    console.log(
      `${((Date.now() - t0) / 60_000).toFixed(1)} min: ${served} served, ${serverErrors} 5xx, in flight ${inFlight}; ${describeSample(m)}`,
    );
  }
  await new Promise((r) => setTimeout(r, 1000 / rate));
}
await Promise.all(pending);
let undelivered = 0;
try {
  await hook.waitForRequests(webhookIds, 60_000);
} catch (error) {
  undelivered = webhookIds.filter((id) => !hook.counts.has(id)).length;
  console.log((error as Error).message);
}
await settle();
const atEnd = await memory('end');
console.log(`end: ${describeSample(atEnd)}`);
const baseline = afterWarmup ?? atStart;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
console.log('\nkind        n      p50 ms   p99 ms   statuses');
for (const [kind, list] of latencies) {
  const tally = [...(statuses.get(kind) ?? [])].map(([s, c]) => `${s}:${c}`).join(' ');
  console.log(
    `${kind.padEnd(10)} ${String(list.length).padStart(5)} ${pct(list, 50).toFixed(0).padStart(8)} ${pct(list, 99).toFixed(0).padStart(8)}   ${tally}`,
  );
}
console.log(
  `\nserved ${served}, 5xx ${serverErrors}, transport errors ${transportErrors}, unexpected statuses ${unexpected}, skipped ticks ${skipped}`,
);
console.log(
  `webhooks: ${webhookIds.length} accepted, ${undelivered} undelivered, ${[...hook.counts.values()].filter((c) => c > 1).length} delivered twice, ${hook.badSignatures()} bad signatures`,
);
console.log(
  '\nmemory, after warm-up → end (service after a full GC; pool filled to its cap before both):',
);
for (const line of compareSamples(baseline, atEnd)) console.log(line);
console.log(`pool at warm-up: ${describePool(baseline.browser)}`);
console.log(`pool at end:     ${describePool(atEnd.browser)}`);
if (snapshotDir) {
  // Writing a snapshot grows the node's RSS by about the heap's size, and it stays mapped.
  console.log(`heap snapshots in ${snapshotDir} (warmup, end); RSS after the first is inflated`);
}

const drainStart = Date.now();
node.signal('SIGTERM');
const exit = await Promise.race([
  node.exited,
  new Promise<{ code: null; signal: null }>((r) =>
    setTimeout(() => r({ code: null, signal: null }), 60_000),
  ),
]);
console.log(`SIGTERM: exit code ${exit.code} after ${Date.now() - drainStart} ms`);
await node.stop();
await hook.close();
await site.close();
probe.close();
rmSync(dataDir, { recursive: true, force: true });
const ok =
  serverErrors === 0 &&
  transportErrors === 0 &&
  undelivered === 0 &&
  // A heap snapshot leaves the node's RSS inflated by about the heap's size: not gated then.
  (snapshotDir !== null || atEnd.rss <= baseline.rss * 1.1) &&
  atEnd.heapUsed <= baseline.heapUsed * 1.1 &&
  // Anon PSS: summed RSS counts Chromium's shared pages once per process, and the file part
  // of PSS moves with the other Chromiums on the machine (see MemorySample.chromiumPssAnon).
  atEnd.chromiumPssAnon <= baseline.chromiumPssAnon * 1.1 &&
  exit.code === 0;
console.log(ok ? 'SOAK PASS' : 'SOAK FAIL');
process.exitCode = ok ? 0 : 1;
