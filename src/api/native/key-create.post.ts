/** POST /api/keys: a further key for the account (at most 10 active); the key is shown once. */
import { Type } from '@sinclair/typebox';
import { createKey, type NewKey } from '../../accounts/key-store.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase } from '../workflow-route-options.js';
import { keyTags } from './keys.get.js';

export const NewKeySchema = Type.Object({
  id: Type.String(),
  prefix: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  key: Type.String({ description: 'The key itself: shown this once, never again' }),
});

export function newKeyJson(key: NewKey) {
  return {
    id: key.id,
    prefix: key.prefix,
    createdAt: new Date(key.createdAt).toISOString(),
    key: key.key,
  };
}

export default defineRoute((app, { store }) => {
  app.post(
    '/api/keys',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'createKey',
        summary: 'Add an API key to the account',
        tags: keyTags,
        querystring: Type.Object(ApiKeyQuery),
        response: { 200: NewKeySchema, ...errorResponses(400, 403) },
      },
    },
    async (request) => newKeyJson(await createKey(store.db, accountOf(request).id)),
  );
});
