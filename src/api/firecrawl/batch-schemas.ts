/**
 * The batch-scrape routes' bodies and answers as TypeBox schemas (validation and OpenAPI),
 * in Firecrawl's shapes: the body is `{urls, ...scrape options at the top level, webhook,
 * maxConcurrency, ignoreInvalidURLs, ...}`, closed like every body of the door.
 */
import { type TProperties, Type } from '@sinclair/typebox';
import { BATCH_EVENTS } from '../../jobs/batches/batch-events.js';
import { MAX_BATCH_URLS } from '../../jobs/batches/batch-service.js';
import { FirecrawlDocument } from './schemas/answers.js';
import { scrapeOptionPropertiesV1, scrapeOptionPropertiesV2 } from './schemas/scrape-options.js';

const closed = { additionalProperties: false } as const;

export const Webhook = Type.Union(
  [
    Type.String({ description: 'The URL events are POSTed to' }),
    Type.Object(
      {
        url: Type.String(),
        headers: Type.Optional(Type.Record(Type.String(), Type.String())),
        metadata: Type.Optional(
          Type.Record(Type.String(), Type.String(), {
            description: 'Echoed in every event',
          }),
        ),
        events: Type.Optional(
          Type.Array(Type.Union(BATCH_EVENTS.map((event) => Type.Literal(event))), {
            description: 'Default all: started, page, completed, failed',
          }),
        ),
      },
      closed,
    ),
  ],
  {
    description:
      'Events batch_scrape.started|page|completed|failed, signed like the native webhooks (X-Webhook-Timestamp, X-Webhook-Signature) and with X-Firecrawl-Signature',
  },
);

/** The scrape options apply to every page. */
function batchProperties(scrapeOptions: TProperties) {
  return {
    urls: Type.Array(Type.String(), {
      minItems: 1,
      maxItems: MAX_BATCH_URLS,
      description: `Absolute http(s) URLs, at most ${MAX_BATCH_URLS}`,
    }),
    webhook: Type.Optional(Webhook),
    maxConcurrency: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: "Pages of this batch scraped at once; default the account's concurrency limit",
      }),
    ),
    ignoreInvalidURLs: Type.Optional(
      Type.Boolean({
        description:
          'List invalid URLs in invalidURLs instead of refusing the batch (v2 default true, v1 false)',
      }),
    ),
    appendToId: Type.Optional(Type.String({ description: 'Not offered by this server (400)' })),
    ...scrapeOptions,
  } satisfies TProperties;
}

export const BatchBodyV2 = Type.Object(batchProperties(scrapeOptionPropertiesV2), closed);
export const BatchBodyV1 = Type.Object(batchProperties(scrapeOptionPropertiesV1), closed);

export const BatchStarted = Type.Object({
  success: Type.Literal(true),
  id: Type.String(),
  url: Type.String({ description: 'Where the batch status answers' }),
  invalidURLs: Type.Optional(Type.Array(Type.String())),
});

export const BatchStatusAnswer = Type.Object({
  success: Type.Literal(true),
  status: Type.Union([
    Type.Literal('scraping'),
    Type.Literal('completed'),
    Type.Literal('failed'),
    Type.Literal('cancelled'),
  ]),
  completed: Type.Integer({ description: 'Pages that ended (scraped or failed)' }),
  total: Type.Integer(),
  creditsUsed: Type.Number(),
  expiresAt: Type.String({ description: 'When the results are purged (ISO 8601)' }),
  error: Type.Optional(
    Type.String({
      description: 'Why a failed batch or crawl stopped (credits or storage ran out)',
    }),
  ),
  next: Type.Optional(
    Type.String({
      description: 'The next page of results, while results are left beyond this one',
    }),
  ),
  data: Type.Array(FirecrawlDocument, {
    description: 'Scraped pages in the order they ended; at most 100 (or ?limit) and about 10 MB',
  }),
});

export const BatchCancelled = Type.Object({
  success: Type.Literal(true),
  status: Type.String({
    description: 'cancelled, or the status of a batch that had already ended',
  }),
});

export const BatchErrorsAnswer = Type.Object({
  errors: Type.Array(
    Type.Object({
      id: Type.String(),
      timestamp: Type.Optional(Type.String()),
      url: Type.String(),
      code: Type.Optional(Type.String()),
      error: Type.String(),
    }),
  ),
  robotsBlocked: Type.Array(Type.String(), {
    description: 'Always empty: robots.txt is not consulted',
  }),
});

export const BatchIdParams = Type.Object({ id: Type.String() });

export const BatchStatusQuery = Type.Object({
  skip: Type.Optional(Type.String({ description: 'Results to skip (the `next` link sets it)' })),
  limit: Type.Optional(Type.String({ description: 'Results per answer, default 100' })),
});
