/** GET /api/workflow/requests/{id}/: a workflow's run records, newest first (contract 32). */
import { Type } from '@sinclair/typebox';
import { HISTORY_LIMIT } from '../../workflows/workflow-input.js';
import { RequestRecordSchema } from '../../workflows/workflow-json.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import {
  ApiKeyQuery,
  IdParams,
  workflowRouteBase,
  workflowTags,
} from '../workflow-route-options.js';

const HistoryQuery = Type.Object({
  ...ApiKeyQuery,
  limit: Type.Optional(
    Type.String({
      description: `At most this many records (${HISTORY_LIMIT.min}..${HISTORY_LIMIT.max})`,
      default: String(HISTORY_LIMIT.default),
    }),
  ),
  before: Type.Optional(
    Type.String({
      description: 'Addition: only records older than the record with this id (next page).',
    }),
  ),
});

export default defineRoute((app, { workflows }) => {
  app.get(
    '/api/workflow/requests/:id',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'listWorkflowRequests',
        summary: "A workflow's request records (archived workflows included)",
        tags: workflowTags,
        params: IdParams,
        querystring: HistoryQuery,
        response: { 200: Type.Array(RequestRecordSchema), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return workflows.history(accountOf(request).id, id, request.query as Record<string, unknown>);
    },
  );
});
