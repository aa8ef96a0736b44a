/** PATCH /api/workflow/edit/{id}: name and/or a JSON merge patch of the config (contract 29). */
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

const EditBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    config: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'RFC 7396 JSON merge patch of the saved config: a field set to null is removed; the result must be a valid config.',
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'At least one of name and config; any other field is 400',
  },
);

export default defineRoute((app, { workflows }) => {
  app.patch(
    '/api/workflow/edit/:id',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'editWorkflow',
        summary: "Edit an active workflow's name and/or config",
        tags: workflowTags,
        params: IdParams,
        querystring: Type.Object(ApiKeyQuery),
        body: EditBody,
        response: { 200: WorkflowSchema, ...errorResponses(400, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return workflows.edit(accountOf(request).id, id, request.body);
    },
  );
});
