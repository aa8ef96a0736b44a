/** GET /api/workflow: the caller's workflows, active and archived, newest first (contract 28). */
import { Type } from '@sinclair/typebox';
import { LIST_LIMIT, parseListQuery } from '../../workflows/workflow-input.js';
import { WorkflowSchema } from '../../workflows/workflow-json.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase, workflowTags } from '../workflow-route-options.js';

const ListQuery = Type.Object({
  ...ApiKeyQuery,
  archived: Type.Optional(
    Type.String({ description: '`true`: only archived workflows; `false`: only active ones' }),
  ),
  limit: Type.Optional(
    Type.String({
      description: `Addition: at most this many (${LIST_LIMIT.min}..${LIST_LIMIT.max}). Without it, all.`,
    }),
  ),
  before: Type.Optional(
    Type.String({
      description:
        'Addition: only workflows older than the workflow with this id (the last id of the previous page).',
    }),
  ),
});

export default defineRoute((app, { workflows }) => {
  app.get(
    '/api/workflow',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'listWorkflows',
        summary: "The caller's workflows, newest first",
        tags: workflowTags,
        querystring: ListQuery,
        response: { 200: Type.Array(WorkflowSchema), ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const query = parseListQuery(request.query as Record<string, unknown>);
      const body = await workflows.listJson(accountOf(request).id, query);
      // Already JSON bytes: Fastify sends a Buffer as it is (the 200 schema documents the
      // array; its inferred body type does not cover bytes).
      return reply.type('application/json; charset=utf-8').send(body as unknown as []);
    },
  );
});
