/**
 * GET /readyz (contract 37): 200 while the database answers and the node is not draining,
 * else 503, so a load balancer stops sending traffic. The browser pool's state is reported
 * but does not decide: a browser that failed is relaunched on the next render.
 */
import { Type } from '@sinclair/typebox';
import { checkDatabase } from '../../store/db.js';
import { defineRoute } from '../route.js';

const ReadySchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not ready')]),
  database: Type.String(),
  browser: Type.Unknown(),
  draining: Type.Boolean(),
});

export default defineRoute((app, { store, readiness }) => {
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
        await checkDatabase(store.db);
      } catch (error) {
        database = `error: ${(error as Error).message}`;
      }
      const browser = readiness.browser();
      const draining = readiness.draining();
      const ready = database === 'ok' && !draining;
      return reply
        .code(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'not ready', database, browser, draining });
    },
  );
});
