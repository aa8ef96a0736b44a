/**
 * The account's keys (an addition to the contract, for the dashboard's Keys view): GET lists
 * the active ones (an id, the key's first characters, its name, when it was made and last
 * used, whether it is the key of this request); the key itself is shown once, by POST /api/keys or a rotation.
 */
import { Type } from '@sinclair/typebox';
import { hashApiKey } from '../../accounts/api-key.js';
import { type KeyInfo, keyIdOf, listKeys } from '../../accounts/key-store.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf, keyOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase } from '../workflow-route-options.js';

export const KeySchema = Type.Object({
  id: Type.String(),
  prefix: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()], { description: "The account's name for it" }),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When it last authenticated a request, to the minute; null if never',
  }),
  current: Type.Boolean({ description: 'The key this request was made with' }),
});

export const keyTags = ['keys'];

export const keyJson = (key: KeyInfo) => ({
  id: key.id,
  prefix: key.prefix,
  name: key.name,
  createdAt: new Date(key.createdAt).toISOString(),
  lastUsedAt: key.lastUsedAt === null ? null : new Date(key.lastUsedAt).toISOString(),
});

export default defineRoute((app, { store }) => {
  app.get(
    '/api/keys',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'listKeys',
        summary: "The account's active API keys",
        tags: keyTags,
        querystring: Type.Object(ApiKeyQuery),
        response: { 200: Type.Array(KeySchema), ...errorResponses(403) },
      },
    },
    async (request) => {
      const current = keyIdOf(hashApiKey(keyOf(request) ?? ''));
      const keys = await listKeys(store.db, accountOf(request).id);
      return keys.map((key) => ({ ...keyJson(key), current: key.id === current }));
    },
  );
});
