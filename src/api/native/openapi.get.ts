/**
 * GET /api/openapi.json (contract 36): the OpenAPI document @fastify/swagger builds from
 * every route's schema; hidden from the document itself.
 */
import { defineRoute } from '../route.js';

export default defineRoute((app) => {
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
});
