/** PATCH /api/workflow/{id}: `{name}` alone; answers like the edit endpoint (contract 29). */
import { Type } from '@sinclair/typebox';
import { WorkflowSchema } from '../../workflows/workflow-json.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import {
  ApiKeyQuery,
  IdParams,
  workflowRouteBase,
  workflowTags,
} from '../workflow-route-options.js';

const RenameBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, description: 'Trimmed' }) },
  { additionalProperties: false },
);

export default defineRoute((app, { workflows }) => {
  app.patch(
    '/api/workflow/:id',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'renameWorkflow',
        summary: 'Rename an active workflow',
        tags: workflowTags,
        params: IdParams,
        querystring: Type.Object(ApiKeyQuery),
        body: RenameBody,
        response: { 200: WorkflowSchema, ...errorResponses(400, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return workflows.rename(accountOf(request).id, id, request.body);
    },
  );
});
