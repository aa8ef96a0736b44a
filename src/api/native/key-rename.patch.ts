/** PATCH /api/keys/{id}: `{name}` names one of the account's keys (null clears the name). */
import { Type } from '@sinclair/typebox';
import { parseKeyNameBody } from '../../accounts/key-name.js';
import { renameKey } from '../../accounts/key-store.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase } from '../workflow-route-options.js';
import { KeyNameBody } from './key-create.post.js';
import { KeyIdParams } from './key-revoke.delete.js';
import { KeySchema, keyJson, keyTags } from './keys.get.js';

export default defineRoute((app, { store }) => {
  app.patch(
    '/api/keys/:id',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'renameKey',
        summary: 'Name an API key',
        tags: keyTags,
        params: KeyIdParams,
        querystring: Type.Object(ApiKeyQuery),
        body: KeyNameBody,
        response: {
          200: Type.Omit(KeySchema, ['current']),
          ...errorResponses(400, 403, 404, 413, 415),
        },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const name = parseKeyNameBody(request.body, true);
      return keyJson(await renameKey(store.db, accountOf(request).id, id, name));
    },
  );
});
