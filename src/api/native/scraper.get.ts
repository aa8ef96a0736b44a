/**
 * GET /api/scraper, the native door: auth → prepare (workflow, parameters, plan, address,
 * credits) → execute (admission, pipeline, settle) → answer; or, with webhook_url, enqueue
 * and confirm. The scrape itself is scrape/scrape-use-case.ts; this file is HTTP only.
 */
import { Type } from '@sinclair/typebox';
import { appError } from '../../errors.js';
import { resultBytes } from '../../scrape/output/index.js';
import { scraperQuerySchema } from '../../scrape/params/index.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { sendError } from '../plugins/error-handler.js';
import { passThroughValidatorCompiler } from '../plugins/pass-through-validator.js';
import { defineRoute } from '../route.js';

const WebhookAccepted = Type.Object({
  status: Type.Literal('ok'),
  message: Type.String(),
  requestId: Type.String(),
});

export default defineRoute((app, { scraper, webhooks }) => {
  app.get(
    '/api/scraper',
    {
      preHandler: app.authenticate,
      // The parser owns validation and its exact texts; the schema documents the parameters.
      validatorCompiler: passThroughValidatorCompiler,
      schema: {
        operationId: 'scrape',
        summary: 'Fetch a page as HTML, Markdown or a PNG screenshot',
        tags: ['scraper'],
        querystring: scraperQuerySchema,
        response: {
          200: {
            description:
              'The page: text/html, text/markdown or image/png; with webhook_url, the JSON confirmation',
            content: {
              'text/html': { schema: { type: 'string' } },
              'text/markdown': { schema: { type: 'string' } },
              'image/png': { schema: { type: 'string', format: 'binary' } },
              'application/json': { schema: WebhookAccepted },
            },
          },
          ...errorResponses(400, 402, 403, 404, 422, 429, 502, 503, 504),
        },
      },
    },
    async (request, reply) => {
      const account = accountOf(request);
      const query = request.query as Record<string, unknown>;
      // Before the workflow, the parameters and the reservation: a saturated node's 503
      // charges and records nothing, so a balancer may retry it on another node.
      const slot = scraper.holdNode();
      try {
        const plan = await scraper.prepare(account, query, request.id);
        if (plan.options.webhookUrl && webhooks) {
          await webhooks.enqueue(plan);
          return reply.type('application/json; charset=utf-8').send({
            status: 'ok',
            message: 'Webhook sent successfully',
            requestId: plan.requestId,
          });
        }
        // A caller that hangs up stops the scrape; its reservation is refunded.
        const gone = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableFinished) gone.abort(appError('CLIENT_CLOSED'));
        });
        const { outcome, charged, balance } = await scraper.execute(plan, {
          signal: gone.signal,
          nodeSlot: slot,
        });
        reply.header('X-Credits-Used', String(charged));
        reply.header('X-Credits-Remaining', String(balance));
        if (!outcome.ok) return sendError(reply, outcome.error);
        const { result } = outcome;
        reply.header('X-Target-Status', String(result.targetStatus));
        reply.header('X-Target-Url', result.finalUrl);
        // The 200 schema is a content-type map; its inferred body type covers only the JSON case.
        return reply.type(result.contentType).send(resultBytes(result) as unknown as string);
      } finally {
        slot.release();
      }
    },
  );
});
