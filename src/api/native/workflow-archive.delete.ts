/**
 * DELETE /api/workflow/archive/{id} (contract 30): 200 with the workflow archived, harmless
 * to repeat. Archiving hides a workflow from runs and edits; nothing is deleted.
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
  app.delete(
    '/api/workflow/archive/:id',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'archiveWorkflow',
        summary: 'Archive a workflow (it can no longer run or be edited)',
        tags: workflowTags,
        params: IdParams,
        querystring: Type.Object(ApiKeyQuery),
        response: { 200: WorkflowSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return workflows.archive(accountOf(request).id, id);
    },
  );
});
