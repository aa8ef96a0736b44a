/**
 * POST /v2/map and POST /v1/map: a site's links from its sitemaps and its page (the map
 * service, src/map/). v2 answers `links` as objects (`url`, and `title`, `description` where
 * known), v1 as strings. Bodies are Firecrawl's, closed: an unknown field is its 400.
 */
import { type TProperties, Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appError } from '../../errors.js';
import {
  type FirecrawlMapBody,
  type FirecrawlMapVersion,
  MAX_MAP_LIMIT,
  mapRequestOf,
} from '../../map/firecrawl-map-request.js';
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import type { ApiServices } from '../services.js';
import { FIRECRAWL_TAG } from './door.js';
import { mapAnswerJson } from './map-answer.js';
import { FirecrawlErrorBody } from './schemas/answers.js';

const closed = { additionalProperties: false } as const;

const Location = Type.Object(
  {
    country: Type.Optional(Type.String({ description: 'Accepted; maps never use a proxy' })),
    languages: Type.Optional(
      Type.Array(Type.String(), { description: 'Accept-Language of every fetch' }),
    ),
  },
  closed,
);

function commonProperties(version: FirecrawlMapVersion) {
  return {
    url: Type.String({ description: 'The site: its start page (http:// is assumed)' }),
    search: Type.Optional(
      Type.String({
        description:
          'Links whose URL, title or description contain the term come first (whole term, then most of its words); the rest follow',
      }),
    ),
    limit: Type.Optional(
      Type.Number({ minimum: 1, maximum: MAX_MAP_LIMIT[version], default: 5000 }),
    ),
    includeSubdomains: Type.Optional(
      Type.Boolean({ default: true, description: 'Links on subdomains of the start host too' }),
    ),
    ignoreQueryParameters: Type.Optional(
      Type.Boolean({
        default: version === 'v2',
        description: 'Drop query strings: links that differ only in them are one',
      }),
    ),
    filterByPath: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'When the URL has a path, only links under it',
      }),
    ),
    timeout: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        description:
          'ms; past it the map fails with 408 (at most 300000). Without it the map reads for 30 s and answers what it found',
      }),
    ),
    location: Type.Optional(Location),
    origin: Type.Optional(Type.String()),
    integration: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    useIndex: Type.Optional(Type.Boolean({ description: 'Accepted; there is no index here' })),
  } satisfies TProperties;
}

const MapBodyV2 = Type.Object(
  {
    ...commonProperties('v2'),
    sitemap: Type.Optional(
      Type.Union([Type.Literal('include'), Type.Literal('skip'), Type.Literal('only')], {
        default: 'include',
        description: 'include: sitemaps and the page; skip: the page only; only: sitemaps only',
      }),
    ),
  },
  closed,
);

const MapBodyV1 = Type.Object(
  {
    ...commonProperties('v1'),
    ignoreSitemap: Type.Optional(Type.Boolean({ default: false })),
    sitemapOnly: Type.Optional(Type.Boolean({ default: false })),
  },
  closed,
);

const LinkV2 = Type.Object({
  url: Type.String(),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
});

const answers = {
  v2: Type.Object({ success: Type.Literal(true), links: Type.Array(LinkV2) }),
  v1: Type.Object({ success: Type.Literal(true), links: Type.Array(Type.String()) }),
};

const errors = Object.fromEntries(
  [400, 401, 402, 403, 408, 500].map((status) => [status, FirecrawlErrorBody]),
);

function mapHandler(version: FirecrawlMapVersion, { map }: ApiServices) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const account = accountOf(request);
    const mapRequest = mapRequestOf(request.body as FirecrawlMapBody, version);
    // A caller that hangs up stops the map; its reservation is refunded.
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort(appError('CLIENT_CLOSED'));
    });
    const { links } = await map.map(account, mapRequest, request.id, gone.signal);
    // Already JSON: Fastify sends a string with a JSON content type as it is.
    return reply.type('application/json; charset=utf-8').send(await mapAnswerJson(links, version));
  };
}

export default defineRoute((app, services) => {
  for (const [version, body] of [
    ['v2', MapBodyV2],
    ['v1', MapBodyV1],
  ] as const) {
    app.post(
      `/${version}/map`,
      {
        onRequest: app.authenticate,
        schema: {
          operationId: `firecrawlMap${version.toUpperCase()}`,
          summary: `A site's links (Firecrawl ${version})`,
          description:
            "From robots.txt's Sitemap: lines, /sitemap.xml and the indexes they list (gzipped too), and from the page's own links; on the site only (subdomains with includeSubdomains), each once, ranked by search, at most limit. 1 credit (PRICE_FETCH), refunded when the site never answers.",
          tags: [FIRECRAWL_TAG],
          security: [{ bearer: [] }],
          body,
          response: { 200: answers[version], ...errors },
        },
      },
      mapHandler(version, services),
    );
  }
});
