/** POST /api/account/webhook-secret/rotate: a new signing secret, used from the next delivery. */
import { Type } from '@sinclair/typebox';
import { rotateWebhookSecret } from '../../accounts/key-store.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase } from '../workflow-route-options.js';
import { keyTags } from './keys.get.js';
import { SecretSchema } from './webhook-secret.get.js';

export default defineRoute((app, { store }) => {
  app.post(
    '/api/account/webhook-secret/rotate',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: 'Replace the webhook signing secret',
        tags: keyTags,
        querystring: Type.Object(ApiKeyQuery),
        response: { 200: SecretSchema, ...errorResponses(403) },
      },
    },
    async (request) => ({
      webhookSecret: await rotateWebhookSecret(store.db, accountOf(request).id),
    }),
  );
});
