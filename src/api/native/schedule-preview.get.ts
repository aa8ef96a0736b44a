/**
 * GET /api/schedules/preview?cron=…&timezone=…: a schedule checked as PUT
 * /api/workflow/{id}/schedule would check it (the same 400s, word for word) and its next due
 * times, saving nothing. The console previews with it, so the preview never accepts what a
 * save refuses (issue 30: it parsed in the browser and accepted six fields).
 */
import { Type } from '@sinclair/typebox';
import { SchedulePreviewSchema } from '../../jobs/schedules/schedule-service.js';
import { errorResponses } from '../openapi-shapes.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase, workflowTags } from '../workflow-route-options.js';

export default defineRoute((app, { schedules }) => {
  app.get(
    '/api/schedules/preview',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'previewSchedule',
        summary: 'Check a cron expression and zone and show their next due times',
        tags: workflowTags,
        querystring: Type.Object({
          ...ApiKeyQuery,
          cron: Type.String({ description: 'Five fields or a shorthand such as @daily' }),
          timezone: Type.Optional(Type.String({ description: 'An IANA zone; default UTC' })),
        }),
        response: { 200: SchedulePreviewSchema, ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      const { cron, timezone } = request.query as Record<string, unknown>;
      return schedules.preview(cron, timezone);
    },
  );
});
