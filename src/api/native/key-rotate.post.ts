/** POST /api/keys/{id}/rotate: revokes the key and answers its replacement (shown once). */
import { Type } from '@sinclair/typebox';
import { rotateKey } from '../../accounts/key-store.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase } from '../workflow-route-options.js';
import { NewKeySchema, newKeyJson } from './key-create.post.js';
import { KeyIdParams } from './key-revoke.delete.js';
import { keyTags } from './keys.get.js';

export default defineRoute((app, { store }) => {
  app.post(
    '/api/keys/:id/rotate',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'rotateKey',
        summary: 'Replace an API key by a new one',
        tags: keyTags,
        params: KeyIdParams,
        querystring: Type.Object(ApiKeyQuery),
        response: { 200: NewKeySchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      return newKeyJson(await rotateKey(store.db, accountOf(request).id, id));
    },
  );
});
