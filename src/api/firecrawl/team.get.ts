/**
 * The account as Firecrawl's team endpoints show it: GET /v2/team/credit-usage (and v1's
 * shape), GET /v2/concurrency-check. Balances are read from the database, not the key cache.
 */
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import { getAccount } from '../../accounts/account-store.js';
import type { Database } from '../../store/schema.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { FIRECRAWL_TAG } from './door.js';
import { FirecrawlErrorBody } from './schemas/answers.js';

const security = [{ bearer: [] }];

async function readAccountCredits(db: Kysely<Database>, id: string): Promise<number> {
  return (await getAccount(db, id))?.credits ?? 0;
}
const errors = { 401: FirecrawlErrorBody };

export default defineRoute((app, { store, admission }) => {
  app.get(
    '/v2/team/credit-usage',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'firecrawlCreditUsageV2',
        summary: "The account's remaining credits (Firecrawl v2)",
        tags: [FIRECRAWL_TAG],
        security,
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            data: Type.Object({
              remainingCredits: Type.Number(),
              planCredits: Type.Null(),
              billingPeriodStart: Type.Null(),
              billingPeriodEnd: Type.Null(),
            }),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const remainingCredits = await readAccountCredits(store.db, accountOf(request).id);
      return {
        success: true as const,
        // No plans or billing periods here: credits are granted by the operator.
        data: {
          remainingCredits,
          planCredits: null,
          billingPeriodStart: null,
          billingPeriodEnd: null,
        },
      };
    },
  );
  app.get(
    '/v1/team/credit-usage',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'firecrawlCreditUsageV1',
        summary: "The account's remaining credits (Firecrawl v1)",
        tags: [FIRECRAWL_TAG],
        security,
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            data: Type.Object({ remaining_credits: Type.Number() }),
          }),
          ...errors,
        },
      },
    },
    async (request) => ({
      success: true as const,
      data: { remaining_credits: await readAccountCredits(store.db, accountOf(request).id) },
    }),
  );
  app.get(
    '/v2/concurrency-check',
    {
      onRequest: app.authenticate,
      schema: {
        operationId: 'firecrawlConcurrencyCheck',
        summary: "The account's scrapes running now on this node, and its limit",
        tags: [FIRECRAWL_TAG],
        security,
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            concurrency: Type.Integer(),
            maxConcurrency: Type.Integer(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const account = accountOf(request);
      return {
        success: true as const,
        concurrency: admission.inFlightFor(account.id),
        maxConcurrency: account.concurrencyLimit,
      };
    },
  );
});
