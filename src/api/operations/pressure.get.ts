/**
 * GET /pressure: this node's free capacity, for a load balancer that routes by load (or an
 * active health check that takes a full node out of rotation). No key: it says nothing about
 * accounts. 200 while the node takes scrapes; 503 when it is draining or its scrape slots are
 * all taken, so a plain HTTP health check already skips a saturated node.
 */
import { Type } from '@sinclair/typebox';
import { defineRoute } from '../route.js';
import type { PressureSource } from '../services.js';

/** For callers of pressureReport (tests build sources of their own). */
export type { PressureSource };

const PressureSchema = Type.Object({
  status: Type.Union([
    Type.Literal('accepting'),
    Type.Literal('saturated'),
    Type.Literal('draining'),
  ]),
  draining: Type.Boolean(),
  scrapes: Type.Object({
    inFlight: Type.Integer(),
    capacity: Type.Integer(),
    free: Type.Integer(),
  }),
  renders: Type.Object({
    inUse: Type.Integer(),
    capacity: Type.Integer(),
    queued: Type.Integer(),
    free: Type.Integer(),
  }),
  load: Type.Number({
    description:
      'The busier of scrape slots and render slots (queued renders count), 0 = idle, ≥ 1 = full',
  }),
  weight: Type.Integer({
    description: 'Suggested routing weight 0..100: the free share of the tighter resource',
  }),
});

export interface PressureReport {
  status: 'accepting' | 'saturated' | 'draining';
  draining: boolean;
  scrapes: { inFlight: number; capacity: number; free: number };
  renders: { inUse: number; capacity: number; queued: number; free: number };
  load: number;
  weight: number;
}

/** Pure: the report for one reading of the source. */
export function pressureReport(source: PressureSource): PressureReport {
  const draining = source.draining();
  const s = source.scrapes();
  const r = source.renders();
  const scrapeLoad = s.capacity > 0 ? s.inFlight / s.capacity : 1;
  const renderLoad = r.capacity > 0 ? (r.inUse + r.queued) / r.capacity : 1;
  const load = Math.round(Math.max(scrapeLoad, renderLoad) * 1000) / 1000;
  const free = Math.max(0, s.capacity - s.inFlight);
  const status = draining ? 'draining' : free === 0 ? 'saturated' : 'accepting';
  return {
    status,
    draining,
    scrapes: { ...s, free },
    renders: { ...r, free: Math.max(0, r.capacity - r.inUse) },
    load,
    weight: status === 'accepting' ? Math.max(1, Math.round((1 - Math.min(1, load)) * 100)) : 0,
  };
}

export default defineRoute((app, { pressure }) => {
  app.get(
    '/pressure',
    {
      schema: {
        operationId: 'pressure',
        summary: "This node's free scrape and render capacity, for load balancing",
        tags: ['operations'],
        response: { 200: PressureSchema, 503: PressureSchema },
      },
    },
    async (_request, reply) => {
      const report = pressureReport(pressure);
      reply.header('Cache-Control', 'no-store');
      return reply.code(report.status === 'accepting' ? 200 : 503).send(report);
    },
  );
});
