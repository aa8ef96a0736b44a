/** DELETE /api/keys/{id}: revokes a key at once; the account's last active key stays (400). */
import { Type } from '@sinclair/typebox';
import { revokeKey } from '../../accounts/key-store.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase } from '../workflow-route-options.js';
import { keyTags } from './keys.get.js';

export const KeyIdParams = Type.Object({ id: Type.String({ description: "A key's id" }) });

export default defineRoute((app, { store }) => {
  app.delete(
    '/api/keys/:id',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'revokeKey',
        summary: 'Revoke an API key',
        tags: keyTags,
        params: KeyIdParams,
        querystring: Type.Object(ApiKeyQuery),
        response: {
          200: Type.Object({ id: Type.String(), revoked: Type.Literal(true) }),
          ...errorResponses(400, 403, 404),
        },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      await revokeKey(store.db, accountOf(request).id, id);
      return { id, revoked: true as const };
    },
  );
});
