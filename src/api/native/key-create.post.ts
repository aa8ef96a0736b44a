/**
 * POST /api/keys: a further key for the account (at most 10 active), named by an optional
 * `{name}`; the key is shown once.
 */
import { Type } from '@sinclair/typebox';
import { parseKeyNameBody } from '../../accounts/key-name.js';
import { createKey, type NewKey } from '../../accounts/key-store.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase } from '../workflow-route-options.js';
import { keyTags } from './keys.get.js';

/** Documentation only: parseKeyNameBody validates, with the catalog's texts. */
export const KeyNameBody = Type.Object(
  {
    name: Type.Optional(
      Type.Union([
        Type.String({ minLength: 1, maxLength: 100, description: 'Trimmed' }),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);

export const NewKeySchema = Type.Object({
  id: Type.String(),
  prefix: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  key: Type.String({ description: 'The key itself: shown this once, never again' }),
});

export function newKeyJson(key: NewKey) {
  return {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
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
        body: Type.Optional(KeyNameBody),
        response: { 200: NewKeySchema, ...errorResponses(400, 403, 413, 415) },
      },
    },
    async (request) => {
      const name = parseKeyNameBody(request.body);
      return newKeyJson(await createKey(store.db, accountOf(request).id, name));
    },
  );
});
