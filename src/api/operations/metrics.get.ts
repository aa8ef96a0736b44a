/** GET /metrics (contract 37): the Prometheus text format of this process's registry. */
import { defineRoute } from '../route.js';

export default defineRoute((app, { metrics }) => {
  app.get(
    '/metrics',
    { schema: { operationId: 'metrics', summary: 'Prometheus metrics', tags: ['operations'] } },
    async (_request, reply) => {
      const body = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(body);
    },
  );
});
