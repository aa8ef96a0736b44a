/** GET /api/account: the caller's account and balance (contract 34). */
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';

const AccountSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    credits: Type.Integer(),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Account' },
);

export default defineRoute((app) => {
  app.get(
    '/api/account',
    {
      preHandler: app.authenticate,
      schema: {
        operationId: 'getAccount',
        summary: "The caller's account and credit balance",
        tags: ['account'],
        querystring: Type.Object({ api_key: Type.Optional(Type.String()) }),
        response: { 200: AccountSchema, ...errorResponses(403) },
      },
    },
    async (request) => {
      const account = accountOf(request);
      return {
        id: account.id,
        name: account.name,
        credits: account.credits,
        createdAt: new Date(account.createdAt).toISOString(),
      };
    },
  );
});
