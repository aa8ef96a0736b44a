/**
 * DELETE /api/workflow/archive/{id} and POST /api/workflow/unarchive/{id} (contract 30):
 * the two transitions of the state machine; 200 with the workflow in its new state,
 * harmless to repeat. Archiving hides a workflow from runs and edits; nothing is deleted.
 */
import { Type } from '@sinclair/typebox';
import { WorkflowSchema } from '../../workflows/workflow-json.js';
import type { WorkflowService } from '../../workflows/workflow-service.js';
import type { AppInstance } from '../app.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import {
  ApiKeyQuery,
  IdParams,
  workflowRouteBase,
  workflowTags,
} from './workflow-route-options.js';

function schema(operationId: string, summary: string) {
  return {
    operationId,
    summary,
    tags: workflowTags,
    params: IdParams,
    querystring: Type.Object(ApiKeyQuery),
    response: { 200: WorkflowSchema, ...errorResponses(403, 404) },
  };
}

export function registerWorkflowArchiveRoutes(app: AppInstance, service: WorkflowService): void {
  app.delete(
    '/api/workflow/archive/:id',
    {
      ...workflowRouteBase(app),
      schema: schema('archiveWorkflow', 'Archive a workflow (it can no longer run or be edited)'),
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return service.archive(accountOf(request).id, id);
    },
  );
  app.post(
    '/api/workflow/unarchive/:id',
    {
      ...workflowRouteBase(app),
      schema: schema('unarchiveWorkflow', 'Make an archived workflow active again'),
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return service.unarchive(accountOf(request).id, id);
    },
  );
}
