/** GET /pressure: what a load balancer reads to route by free capacity. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type PressureSource, pressureReport } from '../../../src/api/operations/pressure.get.js';
import { startService, type TestService } from '../../helpers/service.js';

function source(over: Partial<Record<'draining' | 'inFlight' | 'inUse' | 'queued', number>>) {
  return {
    draining: () => Boolean(over.draining),
    scrapes: () => ({ inFlight: over.inFlight ?? 0, capacity: 64 }),
    renders: () => ({ inUse: over.inUse ?? 0, capacity: 4, queued: over.queued ?? 0 }),
  } satisfies PressureSource;
}

describe('pressure report', () => {
  test('an idle node is accepting with full weight', () => {
    const report = pressureReport(source({}));
    assert.equal(report.status, 'accepting');
    assert.equal(report.load, 0);
    assert.equal(report.weight, 100);
  });

  test('load is the busier resource, queued renders included', () => {
    const report = pressureReport(source({ inFlight: 8, inUse: 4, queued: 2 }));
    assert.equal(report.load, 1.5);
    assert.deepEqual(report.renders, { inUse: 4, capacity: 4, queued: 2, free: 0 });
    assert.equal(report.status, 'accepting', 'renders queue; only scrape slots refuse');
    assert.equal(report.weight, 1);
  });

  test('a node with every scrape slot taken is saturated with weight 0', () => {
    const report = pressureReport(source({ inFlight: 64 }));
    assert.equal(report.status, 'saturated');
    assert.equal(report.weight, 0);
  });

  test('a draining node says so whatever its load', () => {
    assert.equal(pressureReport(source({ draining: 1 })).status, 'draining');
  });
});

describe('GET /pressure on a running service', () => {
  let service: TestService;
  before(async () => {
    service = await startService();
  });
  after(async () => {
    await service?.close();
  });

  test('answers 200 without a key, with the node bounds from config', async () => {
    const response = await fetch(`${service.baseUrl}/pressure`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = (await response.json()) as ReturnType<typeof pressureReport>;
    assert.equal(body.status, 'accepting');
    assert.deepEqual(body.scrapes, { inFlight: 0, capacity: 64, free: 64 });
    assert.equal(body.renders.capacity, 4);
  });
});
