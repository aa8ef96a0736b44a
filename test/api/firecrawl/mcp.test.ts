/**
 * The Firecrawl door as AI agents reach it: the pinned `firecrawl-mcp` server, started the
 * way an MCP client starts it (stdio, FIRECRAWL_API_URL at the service, the pagegrab key as
 * FIRECRAWL_API_KEY), driven by the official MCP client; its scrape and map tools answer
 * from the real service and a fixture site on loopback; every other tool it lists either works
 * or passes the door's "not offered" answer to the agent as its error.
 *
 * firecrawl-mcp 3.26.0 sends nothing anywhere but FIRECRAWL_API_URL in this mode: its
 * telemetry and action logs run only with CLOUD_SERVICE=true, its feedback tools post only
 * when called, and FIRECRAWL_API_URL set turns keyless cloud mode off. The child runs with
 * a guard on every TCP connect that logs the destination and refuses any off loopback, and
 * the last test checks the log.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { type McpSession, startMcpSession } from '../../helpers/mcp-session.js';
import { type ModelServer, startModelServer } from '../../helpers/model-server.js';
import { startService, type TestService } from '../../helpers/service.js';

const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Tide tables</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<main><article>
<h1>Reading a tide table</h1>
<p>A tide table lists the times and heights of high and low water for one harbour. ${'Each row is one tide, and the heights are measured from chart datum. '.repeat(8)}</p>
<p>Read <a href="/docs/guide">the guide</a> before you sail.</p>
</article></main>
<footer>Harbour office</footer>
</body></html>`;

const HOME = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour</title></head>
<body><main><h1>Harbour</h1><p>Tides and moorings.</p>
<ul><li><a href="/article">Tide tables</a></li><li><a href="/about">About the office</a></li></ul>
</main></body></html>`;

/** Pages only the sitemap names: map must have read it. */
const SITEMAP_ONLY = ['/docs/guide', '/docs/moorings'];

const MCP_SERVER = createRequire(import.meta.url).resolve('firecrawl-mcp/dist/index.js');
/** Scrapes and maps go through the SDK's HTTP client; leave room for a loaded machine. */
const TOOL_TIMEOUT_MS = 120_000;

interface ToolContext {
  crawlId: string;
  /** A local file for firecrawl_parse. */
  file: string;
}

interface ToolRow {
  args(context: ToolContext): Record<string, unknown>;
  /** 'works', or the error text the agent gets. */
  expect: 'works' | RegExp;
  check?(text: string, context: ToolContext): void;
}

/** The door's answer to an endpoint it does not offer (src/firecrawl/not-offered.ts). */
const NOT_OFFERED = /This self-hosted server \(pagegrab\) does not offer Firecrawl's/;
const notOffered = (args: Record<string, unknown> = {}): ToolRow => ({
  args: () => args,
  expect: NOT_OFFERED,
});

/** Every tool firecrawl-mcp 3.26.0 lists, in the order the test calls them. */
const TOOL_CALLS: Record<string, ToolRow> = {
  firecrawl_scrape: {
    args: () => ({ url: site.url('/article'), formats: ['markdown'] }),
    expect: 'works',
    check: (text) => assert.match(text, /Reading a tide table/),
  },
  firecrawl_map: {
    args: () => ({ url: site.url('/') }),
    expect: 'works',
    check: (text) => assert.match(text, /\/docs\/guide/),
  },
  firecrawl_crawl: {
    args: () => ({ url: site.url('/'), limit: 2 }),
    expect: 'works',
    check: (text, context) => {
      context.crawlId = String((JSON.parse(text) as { id?: string }).id);
    },
  },
  firecrawl_check_crawl_status: {
    args: (context) => ({ id: context.crawlId }),
    expect: 'works',
    check: (text) => assert.match(text, /"status"/),
  },
  firecrawl_credit_usage: {
    args: () => ({}),
    expect: 'works',
    check: (text) => assert.match(text, /remaining/i),
  },
  // Deprecated by firecrawl-mcp itself: it answers without calling the server.
  firecrawl_extract: { args: () => ({ urls: [site.url('/article')] }), expect: /formats/ },
  firecrawl_search: notOffered({ query: 'tide tables' }),
  firecrawl_find_tools: notOffered({ query: 'weather' }),
  firecrawl_search_feedback: notOffered({
    searchId: '0193a7c2-0000-7000-8000-000000000001',
    rating: 'good',
  }),
  firecrawl_feedback: notOffered({
    endpoint: 'search',
    jobId: '0193a7c2-0000-7000-8000-000000000001',
    rating: 'good',
  }),
  firecrawl_developer_search: notOffered({ query: 'fastify websocket' }),
  firecrawl_agent: notOffered({ prompt: 'Find the tide tables' }),
  firecrawl_agent_status: notOffered({ id: '0193a7c2-0000-7000-8000-000000000000' }),
  firecrawl_interact: {
    args: () => ({ url: site.url('/article'), prompt: 'Click the guide link' }),
    expect: NOT_OFFERED,
  },
  firecrawl_interact_stop: notOffered({ scrapeId: '0193a7c2-0000-7000-8000-000000000000' }),
  firecrawl_parse: { args: (context) => ({ filePath: context.file }), expect: NOT_OFFERED },
  firecrawl_monitor_create: notOffered({ goal: 'Tide table changes', page: 'https://127.0.0.1/' }),
  firecrawl_monitor_list: notOffered(),
  firecrawl_monitor_get: notOffered({ id: 'monitor-1' }),
  firecrawl_monitor_update: notOffered({ id: 'monitor-1', body: { name: 'Tides' } }),
  firecrawl_monitor_delete: notOffered({ id: 'monitor-1' }),
  firecrawl_monitor_run: notOffered({ id: 'monitor-1' }),
  firecrawl_monitor_checks: notOffered({ id: 'monitor-1' }),
  firecrawl_monitor_check: notOffered({ id: 'monitor-1', checkId: 'check-1' }),
  firecrawl_research_search_papers: notOffered({ query: 'tides' }),
  firecrawl_research_inspect_paper: notOffered({ paperId: 'arxiv:2401.00001' }),
  firecrawl_research_related_papers: notOffered({
    seed_ids: ['arxiv:2401.00001'],
    intent: 'similar methods',
  }),
  firecrawl_research_read_paper: notOffered({ paperId: 'arxiv:2401.00001', question: 'What?' }),
  // Deprecated by firecrawl-mcp itself: it answers without calling the server.
  firecrawl_research_search_github: {
    args: () => ({ query: 'tide prediction' }),
    expect: /deprecated and unavailable/,
  },
};

let site: FixtureSite;
let model: ModelServer;
let service: TestService;
let client: Client;
let mcp: McpSession;

interface ToolAnswer {
  isError?: boolean;
  content?: { type: string; text?: string }[];
}

function textOf(answer: unknown): string {
  const { content = [] } = answer as ToolAnswer;
  return content
    .filter((part) => part.type === 'text')
    .map((part) => part.text ?? '')
    .join('\n');
}

async function callTool(name: string, args: Record<string, unknown>): Promise<string> {
  const answer = await client.callTool({ name, arguments: args }, undefined, {
    timeout: TOOL_TIMEOUT_MS,
  });
  const text = textOf(answer);
  assert.notEqual((answer as ToolAnswer).isError, true, `${name} failed: ${text}`);
  return text;
}

before(async () => {
  site = await startFixtureSite();
  site.html('/', HOME);
  site.html('/article', ARTICLE);
  site.html('/about', '<html><body><h1>About</h1><p>The harbour office.</p></body></html>');
  site.route('/robots.txt', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`User-agent: *\nAllow: /\n\nSitemap: ${site.url('/sitemap.xml')}\n`);
  });
  site.route('/sitemap.xml', (_req, res) => {
    const urls = ['/', '/article', ...SITEMAP_ONLY]
      .map((path) => `<url><loc>${site.url(path)}</loc></url>`)
      .join('');
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
    );
  });
  model = await startModelServer({ model: 'test-model', apiKey: null });
  service = await startService({
    credits: 1000,
    env: { OPENAI_BASE_URL: model.baseUrl, MODEL_NAME: 'test-model' },
  });
  mcp = await startMcpSession(MCP_SERVER, service, TOOL_TIMEOUT_MS);
  client = mcp.client;
});

after(async () => {
  await mcp?.close();
  await service?.close();
  await model?.close();
  await site?.close();
});

describe('firecrawl-mcp over stdio, pointed at the Firecrawl door', () => {
  it('initializes and lists the scrape and map tools', async () => {
    assert.equal(client.getServerVersion()?.version, '3.26.0');
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    assert.ok(names.includes('firecrawl_scrape'), names.join(', '));
    assert.ok(names.includes('firecrawl_map'), names.join(', '));
  });

  it("firecrawl_scrape answers the page's Markdown", async () => {
    const before = site.hits('/article');
    const text = await callTool('firecrawl_scrape', {
      url: site.url('/article'),
      formats: ['markdown'],
    });
    const document = JSON.parse(text) as { markdown?: string; metadata?: { title?: string } };
    assert.match(document.markdown ?? '', /^# Reading a tide table$/m);
    assert.match(document.markdown ?? '', /A tide table lists the times and heights/);
    assert.doesNotMatch(document.markdown ?? '', /Harbour office/, 'main content only');
    assert.equal(document.metadata?.title, 'Tide tables');
    assert.equal(site.hits('/article') - before, 1, 'the service fetched the page');
  });

  it("firecrawl_map answers the site's links from its sitemap and from the page", async () => {
    const text = await callTool('firecrawl_map', { url: site.url('/') });
    const { links = [] } = JSON.parse(text) as { links?: { url: string }[] };
    const urls = links.map((link) => link.url);
    for (const path of SITEMAP_ONLY) assert.ok(urls.includes(site.url(path)), `${path} in map`);
    assert.ok(urls.includes(site.url('/about')), '/about, linked from the page only, in map');
    assert.ok(urls.includes(site.url('/article')), '/article in map');
    assert.ok(site.hits('/sitemap.xml') >= 1, 'the sitemap was read');
  });

  it('answers every tool it lists: the work done, or why this server does not offer it', async () => {
    const { tools } = await client.listTools();
    // A tool a new firecrawl-mcp lists fails here until it has its row.
    assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.keys(TOOL_CALLS).sort());
    const context: ToolContext = { crawlId: '', file: join(mcp.workDir, 'notes.txt') };
    writeFileSync(context.file, 'A note on tides.\n');
    const wrong: string[] = [];
    for (const [name, row] of Object.entries(TOOL_CALLS)) {
      try {
        const answer = (await client.callTool({ name, arguments: row.args(context) }, undefined, {
          timeout: TOOL_TIMEOUT_MS,
        })) as ToolAnswer;
        const text = textOf(answer);
        if (row.expect === 'works') {
          assert.notEqual(answer.isError, true, `failed: ${text}`);
          row.check?.(text, context);
        } else {
          // As an error, or as the answer's `success: false` and agent_hints.
          assert.match(text, row.expect);
        }
      } catch (error) {
        // An MCP error (-32602 when a tool's answer misses its schema) is wrong too.
        wrong.push(`${name}: ${(error as Error).message.slice(0, 400)}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it("firecrawl_scrape with formats json and jsonOptions answers the operator's model", async () => {
    model.reset();
    model.script({ content: '{"harbour":"tide tables","rows":"one tide each"}' });
    const schema = {
      type: 'object',
      properties: { harbour: { type: 'string' }, rows: { type: 'string' } },
      required: ['harbour'],
    };
    const text = await callTool('firecrawl_scrape', {
      url: site.url('/article'),
      formats: ['json'],
      jsonOptions: { prompt: 'What does the page explain?', schema },
    });
    const document = JSON.parse(text) as { json?: unknown };
    assert.deepEqual(document.json, { harbour: 'tide tables', rows: 'one tide each' });
    assert.deepEqual(model.problems, []);
    assert.deepEqual(model.requests[0]?.response_format?.json_schema?.schema, schema);
    assert.match(model.requests[0]?.messages.at(-1)?.content ?? '', /A tide table lists/);
  });

  it("firecrawl_scrape with the summary format answers the operator's model", async () => {
    model.reset();
    model.script({ content: 'How to read the heights and times of a harbour tide table.' });
    const text = await callTool('firecrawl_scrape', {
      url: site.url('/article'),
      formats: ['summary'],
    });
    const document = JSON.parse(text) as { summary?: string };
    assert.equal(document.summary, 'How to read the heights and times of a harbour tide table.');
    assert.deepEqual(model.problems, []);
    assert.match(model.requests[0]?.messages.at(-1)?.content ?? '', /A tide table lists/);
  });

  // The tool takes formats as names only, so no git-diff mode: the status, as Firecrawl answers
  // changeTracking without modes.
  it('firecrawl_scrape with changeTracking: new, then same, then changed', async () => {
    const page = (price: string) =>
      `<html><head><title>Kettle</title></head><body><main><h1>Copper kettle</h1><p>A copper kettle that boils a litre of water on any stove, hand made. Price: ${price} euros.</p></main></body></html>`;
    const tracking = async () => {
      const text = await callTool('firecrawl_scrape', {
        url: site.url('/kettle'),
        formats: ['markdown', 'changeTracking'],
        maxAge: 0,
      });
      const { changeTracking } = JSON.parse(text) as {
        changeTracking?: { changeStatus?: string; previousScrapeAt?: string | null };
      };
      return changeTracking;
    };
    site.html('/kettle', page('42'));
    const first = await tracking();
    assert.equal(first?.changeStatus, 'new');
    assert.equal(first?.previousScrapeAt ?? null, null);
    const second = await tracking();
    assert.equal(second?.changeStatus, 'same');
    assert.ok(second?.previousScrapeAt, 'the first scrape is the one compared with');
    site.html('/kettle', page('45'));
    assert.equal((await tracking())?.changeStatus, 'changed');
  });

  it("firecrawl_scrape answers the page's JSON-LD in its metadata", async () => {
    site.html(
      '/recipe',
      `<html><head><title>Scones</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe","name":"Scones","recipeYield":"8"}</script></head><body><main><h1>Scones</h1><p>${'Rub the butter into the flour, then add the milk and bake. '.repeat(4)}</p></main></body></html>`,
    );
    const text = await callTool('firecrawl_scrape', {
      url: site.url('/recipe'),
      formats: ['markdown'],
    });
    const { metadata } = JSON.parse(text) as { metadata?: { jsonLd?: unknown } };
    assert.deepEqual(metadata?.jsonLd, [
      { '@context': 'https://schema.org', '@type': 'Recipe', name: 'Scones', recipeYield: '8' },
    ]);
  });

  // The tool end to end against the service: mcp-extract.test.ts, on 3.23.0 (the newest whose
  // firecrawl_extract still calls /v2/extract).
  it("firecrawl_extract is 3.26.0's deprecation notice, pointing at firecrawl_scrape with json", async () => {
    model.reset();
    const answer = await client.callTool(
      { name: 'firecrawl_extract', arguments: { urls: [site.url('/article')], prompt: 'x' } },
      undefined,
      { timeout: TOOL_TIMEOUT_MS },
    );
    assert.equal((answer as ToolAnswer).isError, true);
    assert.match(textOf(answer), /firecrawl_extract is deprecated.*firecrawl_scrape.*jsonOptions/s);
    assert.equal(model.requests.length, 0, 'the tool calls no server');
  });

  it('the MCP server connects to nothing but the service', () => {
    const egress = mcp.egress();
    const service_ = new URL(service.baseUrl);
    assert.ok(egress.length > 0, 'the guard saw the tool calls');
    assert.deepEqual(
      new Set(egress),
      new Set([`${service_.hostname}:${service_.port}`]),
      mcp.stderr(),
    );
  });
});
