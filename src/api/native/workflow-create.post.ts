/** POST /api/workflow/create (and /create/): saves a scraper configuration (contract 27). */
import { Type } from '@sinclair/typebox';
import { workflowConfigSchema } from '../../scrape/params/index.js';
import { WorkflowSchema } from '../../workflows/workflow-json.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase, workflowTags } from '../workflow-route-options.js';

const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'Trimmed; need not be unique' }),
    config: Type.Unsafe<Record<string, unknown>>({
      ...workflowConfigSchema,
      description:
        'Scraper parameters (every one except api_key, workflow_id, config). Values follow the scraper rules: `"true"` is accepted for a boolean, `instructions` may be a JSON string. Stored normalised.',
    }),
  },
  { additionalProperties: false },
);

export default defineRoute((app, { workflows }) => {
  app.post(
    '/api/workflow/create',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'createWorkflow',
        summary: 'Save a scraper configuration as a workflow',
        tags: workflowTags,
        querystring: Type.Object(ApiKeyQuery),
        body: CreateBody,
        response: { 200: WorkflowSchema, ...errorResponses(400, 403, 413, 415) },
      },
    },
    async (request) => workflows.create(accountOf(request).id, request.body),
  );
});
