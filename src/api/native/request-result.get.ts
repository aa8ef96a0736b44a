/**
 * GET /api/requests/{id}/result: the kept result of a scrape (RESULT_RETENTION_DAYS), with
 * the content type it was answered with. Served sandboxed (CSP `sandbox`, nosniff): a kept
 * page opened here runs in an opaque origin, never the dashboard's.
 */
import { Type } from '@sinclair/typebox';
import { appError } from '../../errors.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase } from '../workflow-route-options.js';
import { RequestIdParams } from './request.get.js';

export default defineRoute((app, { keptResults }) => {
  app.get(
    '/api/requests/:id/result',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'getRequestResult',
        summary: "A request's kept result (HTML, Markdown, PNG or a document's JSON)",
        tags: ['requests'],
        params: RequestIdParams,
        querystring: Type.Object({
          ...ApiKeyQuery,
          download: Type.Optional(Type.String({ description: '`true`: as an attachment' })),
        }),
        response: { 200: Type.Unknown(), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const accountId = accountOf(request).id;
      const result = await keptResults.read(accountId, id);
      if (!result) throw appError('RESULT_NOT_KEPT');
      const download = (request.query as { download?: string }).download === 'true';
      return reply
        .header('Content-Type', result.contentType)
        .header('Content-Security-Policy', 'sandbox')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', download ? `attachment; filename="${id}"` : 'inline')
        .send(result.body);
    },
  );
});
