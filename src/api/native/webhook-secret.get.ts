/**
 * GET /api/account/webhook-secret: the secret that signs the account's webhook deliveries
 * (contract 22), for a receiver to verify them; POST .../rotate replaces it.
 */
import { Type } from '@sinclair/typebox';
import { webhookSecretOf } from '../../accounts/account-store.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase } from '../workflow-route-options.js';
import { keyTags } from './keys.get.js';

export const SecretSchema = Type.Object({ webhookSecret: Type.String() });

export default defineRoute((app, { store }) => {
  app.get(
    '/api/account/webhook-secret',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'getWebhookSecret',
        summary: 'The secret signing webhook deliveries (X-Webhook-Signature)',
        tags: keyTags,
        querystring: Type.Object(ApiKeyQuery),
        response: { 200: SecretSchema, ...errorResponses(403) },
      },
    },
    async (request) => {
      const secret = await webhookSecretOf(store.db, accountOf(request).id);
      return { webhookSecret: secret ?? '' };
    },
  );
});
