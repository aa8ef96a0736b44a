/** GET /healthz (contract 37): the process is alive; it checks nothing else. */
import { Type } from '@sinclair/typebox';
import { defineRoute } from '../route.js';

export default defineRoute((app) => {
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
});
