/**
 * GET /api/requests: the account's request log, every scrape (one-off, workflow, webhook,
 * Firecrawl door, batch and crawl pages), newest first, filtered and paged by keyset
 * (`next` → `before`). An addition to the contract, like the dashboard it serves.
 */
import { listRequests } from '../../store/request-log.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import {
  LogPageSchema,
  logRecordJson,
  parseRequestLogQuery,
  RequestLogQuery,
} from '../request-log.js';
import { defineRoute } from '../route.js';
import { workflowRouteBase } from '../workflow-route-options.js';

export default defineRoute((app, { store }) => {
  app.get(
    '/api/requests',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'listRequests',
        summary: "The account's request log, newest first",
        tags: ['requests'],
        querystring: RequestLogQuery,
        response: { 200: LogPageSchema, ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      const filter = parseRequestLogQuery(request.query as Record<string, unknown>);
      const { rows, more } = await listRequests(store.db, accountOf(request).id, filter);
      return {
        records: rows.map(logRecordJson),
        next: more ? (rows.at(-1)?.id ?? null) : null,
      };
    },
  );
});
