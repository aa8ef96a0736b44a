/**
 * DELETE /api/workflow/{id}/schedule (issue 18): removes the schedule (runs already started
 * finish); answers it as it was, with no next runs. Allowed on an archived workflow.
 */
import { Type } from '@sinclair/typebox';
import { ScheduleSchema } from '../../jobs/schedules/schedule-service.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import {
  ApiKeyQuery,
  IdParams,
  workflowRouteBase,
  workflowTags,
} from '../workflow-route-options.js';

export default defineRoute((app, { schedules }) => {
  app.delete(
    '/api/workflow/:id/schedule',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'deleteWorkflowSchedule',
        summary: "Remove a workflow's schedule",
        tags: workflowTags,
        params: IdParams,
        querystring: Type.Object(ApiKeyQuery),
        response: { 200: ScheduleSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return schedules.remove(accountOf(request).id, id);
    },
  );
});
