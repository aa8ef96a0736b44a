/**
 * What authentication, hooks, logging and metrics cost: requests/s of GET /api/account on
 * the real service (key in X-API-Key, SQLite lookup, info-level request log to /dev/null)
 * against a bare Fastify route returning the same JSON, in one run, same load generator; a
 * third row is that bare route with Fastify's own request logging, for scale.
 * Each server is a child process; the load generator is this process.
 *   npm run build && node --import tsx bench/auth-overhead.ts [--connections 32] [--seconds 10]
 * Target: ratio >= 0.8.
 */
import { parseArgs } from 'node:util';
import { startChildServer } from './lib/child-server.js';
import { cpuSeconds, loadAverage, runLoad } from './lib/load.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '10' },
  },
});
const connections = Number(values.connections);
const durationMs = Number(values.seconds) * 1000;

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  cpuUsPerRequest: number;
}
const rows: Row[] = [];
for (const kind of ['bare-account', 'bare-account-logged', 'service'] as const) {
  const server = await startChildServer(kind);
  try {
    const cpuBefore = cpuSeconds(server.pid);
    const result = await runLoad({
      url: `${server.url}/api/account`,
      connections,
      durationMs,
      warmupMs: 2000,
      ...(server.apiKey ? { headers: { 'x-api-key': server.apiKey } } : {}),
    });
    const cpuUs = (cpuSeconds(server.pid) - cpuBefore) * 1e6;
    rows.push({
      name: kind,
      rps: result.rps,
      p50: result.p50Ms,
      p99: result.p99Ms,
      errors: result.errors,
      cpuUsPerRequest: cpuUs / result.sent,
    });
  } finally {
    await server.stop();
  }
}
const [bare, bareLogged, service] = rows as [Row, Row, Row];
console.log(
  `auth-overhead: ${connections} connections, ${durationMs / 1000} s each, load ${loadAverage()}`,
);
console.log('| server | req/s | p50 ms | p99 ms | server CPU µs/req | errors |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpuUsPerRequest.toFixed(0)} | ${r.errors} |`,
  );
}
console.log(`ratio service/bare: ${(service.rps / bare.rps).toFixed(3)} (target >= 0.8)`);
console.log(`ratio bare with request logging/bare: ${(bareLogged.rps / bare.rps).toFixed(3)}`);
console.log(
  `CPU per request service/bare: ${(service.cpuUsPerRequest / bare.cpuUsPerRequest).toFixed(2)}x`,
);
