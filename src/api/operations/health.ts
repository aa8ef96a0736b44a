import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { AppDeps, AppInstance } from '../app.js';

const ReadySchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not ready')]),
  database: Type.String(),
  browser: Type.Unknown(),
  draining: Type.Boolean(),
});

export function registerHealthRoutes(app: AppInstance, deps: AppDeps): void {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'healthz',
        summary: 'The process is alive',
        tags: ['operations'],
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'readyz',
        summary: 'The database and the browser pool are usable',
        tags: ['operations'],
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (_request, reply) => {
      let database = 'ok';
      try {
        await sql`select 1`.execute(deps.store.db);
      } catch (error) {
        database = `error: ${(error as Error).message}`;
      }
      const browser = deps.readiness?.browser?.() ?? { status: 'not configured' };
      const draining = deps.readiness?.draining?.() ?? false;
      const ready = database === 'ok' && !draining;
      return reply
        .code(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'not ready', database, browser, draining });
    },
  );

  app.get(
    '/metrics',
    { schema: { operationId: 'metrics', summary: 'Prometheus metrics', tags: ['operations'] } },
    async (_request, reply) => {
      const body = await deps.metrics.registry.metrics();
      return reply.type(deps.metrics.registry.contentType).send(body);
    },
  );
}
