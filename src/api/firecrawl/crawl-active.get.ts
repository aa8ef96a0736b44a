/**
 * GET /v2/crawl/active and GET /v1/crawl/active: the account's crawls still running; also at
 * /crawl/ongoing, the older name Firecrawl still answers to.
 */
import { accountOf } from '../plugins/auth.js';
import { defineRoute } from '../route.js';
import { FIRECRAWL_VERSIONS } from './batch-answers.js';
import { ActiveCrawlsAnswer } from './crawl-schemas.js';
import { FIRECRAWL_TAG } from './door.js';
import { FirecrawlErrorBody } from './schemas/answers.js';

export default defineRoute((app, { crawls }) => {
  for (const version of FIRECRAWL_VERSIONS) {
    for (const name of ['active', 'ongoing'] as const) {
      app.get(
        `/${version}/crawl/${name}`,
        {
          onRequest: app.authenticate,
          schema: {
            operationId: `firecrawlCrawl${name === 'active' ? 'Active' : 'Ongoing'}${version.toUpperCase()}`,
            summary: `The account's running crawls (Firecrawl ${version})`,
            tags: [FIRECRAWL_TAG],
            security: [{ bearer: [] }],
            response: { 200: ActiveCrawlsAnswer, 401: FirecrawlErrorBody },
          },
        },
        async (request, reply) => {
          const account = accountOf(request);
          const active = await crawls.active(account.id);
          return reply.send({
            success: true,
            crawls: active.map((crawl) => ({
              id: crawl.id,
              teamId: account.id,
              url: crawl.url,
              status: 'scraping',
              options: crawl.options,
            })),
          });
        },
      );
    }
  }
});
