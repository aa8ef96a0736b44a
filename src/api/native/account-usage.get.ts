/**
 * GET /api/account/usage: the overview's figures (the dashboard's landing page): credits and
 * requests per UTC day, requests by outcome, the slowest and the most failing targets.
 */
import { Type } from '@sinclair/typebox';
import { parseIntegerParam } from '../../scrape/params/integer.js';
import { usageOf } from '../../store/request-log.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase } from '../workflow-route-options.js';

const Target = Type.Object({
  host: Type.String(),
  requests: Type.Integer(),
  failed: Type.Integer(),
  avgMs: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});

const UsageSchema = Type.Object({
  credits: Type.Integer({ description: 'The balance now' }),
  days: Type.Array(
    Type.Object({
      date: Type.String({ description: 'YYYY-MM-DD (UTC)' }),
      credits: Type.Integer(),
      requests: Type.Integer(),
      failed: Type.Integer(),
    }),
  ),
  outcomes: Type.Object({
    success: Type.Integer(),
    failed: Type.Integer(),
    pending: Type.Integer(),
  }),
  slowest: Type.Array(Target),
  failing: Type.Array(Target),
});

export default defineRoute((app, { store }) => {
  app.get(
    '/api/account/usage',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'getUsage',
        summary: "The account's usage over the last days",
        tags: ['account'],
        querystring: Type.Object({
          ...ApiKeyQuery,
          days: Type.Optional(Type.String({ description: '1..90, default 30' })),
        }),
        response: { 200: UsageSchema, ...errorResponses(400, 403) },
      },
    },
    async (request) => {
      const { days } = request.query as { days?: string };
      const count = days === undefined ? 30 : parseIntegerParam('days', days, 1, 90);
      const account = accountOf(request);
      return { credits: account.credits, ...(await usageOf(store.db, account.id, count)) };
    },
  );
});
