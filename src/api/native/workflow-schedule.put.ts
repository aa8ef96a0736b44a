/**
 * PUT /api/workflow/{id}/schedule (issue 18): set, change, pause (`enabled: false`) or resume
 * an active workflow's schedule. Each due time runs as the scraper request with
 * `workflow_id` would: same credits, record and webhook.
 */
import { Type } from '@sinclair/typebox';
import { ScheduleBodySchema, ScheduleSchema } from '../../jobs/schedules/schedule-service.js';
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
  app.put(
    '/api/workflow/:id/schedule',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'setWorkflowSchedule',
        summary: "Set, change, pause or resume a workflow's schedule",
        tags: workflowTags,
        params: IdParams,
        querystring: Type.Object(ApiKeyQuery),
        body: ScheduleBodySchema,
        response: { 200: ScheduleSchema, ...errorResponses(400, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return schedules.put(accountOf(request).id, id, request.body);
    },
  );
});
