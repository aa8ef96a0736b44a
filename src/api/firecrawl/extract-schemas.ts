/** The extract routes' bodies and answers (Firecrawl's shapes, v1 and v2), as TypeBox. */
import { Type } from '@sinclair/typebox';
import { ScrapeOptionsV2 } from './schemas/scrape-options.js';

const closed = { additionalProperties: false } as const;

export const ExtractBody = Type.Object(
  {
    urls: Type.Array(
      Type.String({ description: 'A page, or `https://site/*` for the site (found by a map)' }),
      { minItems: 1, maxItems: 100 },
    ),
    prompt: Type.Optional(Type.String()),
    schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    systemPrompt: Type.Optional(Type.String()),
    allowExternalLinks: Type.Optional(Type.Boolean()),
    enableWebSearch: Type.Optional(
      Type.Boolean({ description: 'true answers 400: this server reads only the urls named' }),
    ),
    includeSubdomains: Type.Optional(Type.Boolean()),
    showSources: Type.Optional(Type.Boolean()),
    ignoreSitemap: Type.Optional(Type.Boolean()),
    ignoreInvalidURLs: Type.Optional(Type.Boolean()),
    limit: Type.Optional(Type.Integer({ minimum: 1 })),
    scrapeOptions: Type.Optional(ScrapeOptionsV2),
    origin: Type.Optional(Type.String()),
    integration: Type.Optional(Type.String()),
  },
  closed,
);

export const ExtractStarted = Type.Object({
  success: Type.Literal(true),
  id: Type.String(),
  invalidURLs: Type.Optional(Type.Array(Type.String())),
  urlTrace: Type.Optional(Type.Array(Type.Unknown())),
});

export const ExtractStatusAnswer = Type.Object({
  success: Type.Literal(true),
  status: Type.Union([
    Type.Literal('processing'),
    Type.Literal('completed'),
    Type.Literal('failed'),
    Type.Literal('cancelled'),
  ]),
  data: Type.Optional(Type.Unknown()),
  error: Type.Optional(Type.String()),
  expiresAt: Type.String(),
  creditsUsed: Type.Number(),
  sources: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export const ExtractIdParams = Type.Object({ id: Type.String() });
