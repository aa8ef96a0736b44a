/**
 * GET /docs: the API reference (reference-html.ts), built once from the OpenAPI document on
 * its first request, when every route is registered.
 */
import { defineRoute } from '../route.js';
import { referenceHtml } from './reference-html.js';

/** Its own styles inline, nothing else: no script, no remote resource. */
const DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

export default defineRoute((app) => {
  let html: string | undefined;
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    html ??= referenceHtml(app.swagger() as unknown as Record<string, unknown>);
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', DOCS_CSP)
      .send(html);
  });
});
