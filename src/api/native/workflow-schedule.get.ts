/** GET /api/workflow/{id}/schedule: the workflow's schedule and its next due times (issue 18). */
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
  app.get(
    '/api/workflow/:id/schedule',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'getWorkflowSchedule',
        summary: "A workflow's schedule, its next due times and its last scheduled run",
        tags: workflowTags,
        params: IdParams,
        querystring: Type.Object(ApiKeyQuery),
        response: { 200: ScheduleSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return schedules.get(accountOf(request).id, id);
    },
  );
});
