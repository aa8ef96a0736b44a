/**
 * GET /api/schedules (issue 18): every schedule of the caller's workflows, with next due
 * times and last runs, in one answer (the dashboard's workflow list shows them).
 */
import { Type } from '@sinclair/typebox';
import { ScheduleSchema } from '../../jobs/schedules/schedule-service.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase, workflowTags } from '../workflow-route-options.js';

export default defineRoute((app, { schedules }) => {
  app.get(
    '/api/schedules',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'listWorkflowSchedules',
        summary: "The schedules of the caller's workflows",
        tags: workflowTags,
        querystring: Type.Object(ApiKeyQuery),
        response: { 200: Type.Array(ScheduleSchema), ...errorResponses(403) },
      },
    },
    async (request) => schedules.list(accountOf(request).id),
  );
});
