/** Contract 7.36–37: /healthz, /readyz, /metrics, /api/openapi.json and /docs. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startService, type TestService } from '../../helpers/service.js';

let service: TestService;

before(async () => {
  service = await startService();
});
after(() => service.close());

describe('operations endpoints', () => {
  it('/healthz answers {"status":"ok"}', async () => {
    const response = await fetch(`${service.baseUrl}/healthz`);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { status: 'ok' });
  });

  it('/readyz reports the database usable and no drain', async () => {
    const response = await fetch(`${service.baseUrl}/readyz`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(body.status, 'ready');
    assert.equal(body.database, 'ok');
    assert.equal(body.draining, false);
  });

  it('/metrics is Prometheus text that counts requests', async () => {
    await fetch(`${service.baseUrl}/api/account?api_key=${service.apiKey}`);
    const response = await fetch(`${service.baseUrl}/metrics`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    assert.match(text, /^# HELP pagegrab_http_requests_total /m);
    assert.match(text, /^# TYPE pagegrab_http_requests_total counter$/m);
    assert.match(
      text,
      /pagegrab_http_requests_total\{[^}]*route="\/api\/account"[^}]*status="200"[^}]*\} [1-9]/,
    );
    assert.match(text, /^pagegrab_process_cpu_user_seconds_total /m);
  });

  it('/api/openapi.json is OpenAPI 3.1 with the scraper parameters and the account route', async () => {
    const response = await fetch(`${service.baseUrl}/api/openapi.json`);
    assert.equal(response.status, 200);
    const doc = (await response.json()) as {
      openapi: string;
      paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
    };
    assert.match(doc.openapi, /^3\.1\./);
    const scraper = doc.paths['/api/scraper']?.get;
    assert.ok(scraper, '/api/scraper GET is documented');
    const names = new Set(
      (scraper.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
    );
    for (const name of [
      'url',
      'render',
      'markdown',
      'screenshot',
      'screenshot_full_page',
      'block_resources',
      'block_ads',
      'block_cookie_banners',
      'block_chat_widgets',
      'instructions',
      'proxy_type',
      'proxy_country',
      'timeout',
      'window_width',
      'window_height',
      'workflow_id',
      'webhook_url',
      'config',
    ]) {
      assert.ok(names.has(name), `parameter ${name}`);
    }
    assert.ok(doc.paths['/api/account']?.get, '/api/account GET is documented');
  });

  it('/api/openapi.json documents the Firecrawl door under its own tag, with body schemas', async () => {
    const response = await fetch(`${service.baseUrl}/api/openapi.json`);
    type Operation = {
      tags?: string[];
      requestBody?: {
        content: Record<string, { schema: { properties?: Record<string, unknown> } }>;
      };
    };
    const doc = (await response.json()) as { paths: Record<string, Record<string, Operation>> };
    const tagged = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op.tags?.includes('firecrawl'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    for (const route of [
      'POST /v2/scrape',
      'POST /v1/scrape',
      'GET /v2/team/credit-usage',
      'GET /v2/concurrency-check',
    ]) {
      assert.ok(tagged.includes(route), `${route} under the firecrawl tag`);
    }
    const body = doc.paths['/v2/scrape']?.post?.requestBody?.content['application/json']?.schema;
    for (const field of ['url', 'formats', 'actions', 'onlyMainContent', 'maxAge', 'origin']) {
      assert.ok(body?.properties?.[field], `body field ${field}`);
    }
    assert.ok(
      !tagged.some((route) => route.includes('/api/')),
      'the native API stays under its own tags',
    );
  });

  it('/docs is an HTML page', async () => {
    const response = await fetch(`${service.baseUrl}/docs`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await response.text(), /<html/i);
  });
});
