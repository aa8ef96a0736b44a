/**
 * POST /api/workflow/unarchive/{id} (contract 30): 200 with the workflow active again,
 * harmless to repeat.
 */
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

export default defineRoute((app, { workflows }) => {
  app.post(
    '/api/workflow/unarchive/:id',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'unarchiveWorkflow',
        summary: 'Make an archived workflow active again',
        tags: workflowTags,
        params: IdParams,
        querystring: Type.Object(ApiKeyQuery),
        response: { 200: WorkflowSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return workflows.unarchive(accountOf(request).id, id);
    },
  );
});
