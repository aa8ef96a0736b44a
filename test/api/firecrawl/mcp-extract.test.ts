/**
 * firecrawl-mcp's `firecrawl_extract` end to end: 3.26.0 (the main pin, mcp.test.ts) made the
 * tool a deprecation notice that calls no server, so the newest version whose tool still
 * starts a /v2/extract job and polls it, 3.23.0, is pinned beside it as
 * `firecrawl-mcp-extract`. Started the way an MCP client starts it (stdio, FIRECRAWL_API_URL
 * at the service), with the same guard on every TCP connect as mcp.test.ts; the extract runs
 * on the loopback model over loopback pages, and the ledger is read after.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { type McpSession, startMcpSession } from '../../helpers/mcp-session.js';
import type { ModelServer } from '../../helpers/model-server.js';
import { balanceOf, startServiceWithModel, type TestService } from '../../helpers/service.js';

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><article><h1>${title}</h1><p>${body} ${'Some more words about it. '.repeat(10)}</p></article></main></body></html>`;

const SCHEMA = {
  type: 'object',
  properties: { teas: { type: 'array', items: { type: 'string' } } },
  required: ['teas'],
};
const PRICE_MODEL_CALL = 4;

const MCP_SERVER = createRequire(import.meta.url).resolve('firecrawl-mcp-extract/dist/index.js');
/** The SDK polls the job every 2 s; leave room for a loaded machine. */
const TOOL_TIMEOUT_MS = 120_000;

let site: FixtureSite;
let model: ModelServer;
let service: TestService;
let client: Client;
let mcp: McpSession;

before(async () => {
  site = await startFixtureSite();
  site.html('/green', page('Green tea', 'Sencha is a green tea.'));
  site.html('/black', page('Black tea', 'Assam is a black tea.'));
  ({ service, model } = await startServiceWithModel({
    PRICE_MODEL_CALL: String(PRICE_MODEL_CALL),
    JOB_POLL_MS: '50',
  }));
  mcp = await startMcpSession(MCP_SERVER, service, TOOL_TIMEOUT_MS);
  client = mcp.client;
});

after(async () => {
  await mcp?.close();
  await service?.close();
  await model?.close();
  await site?.close();
});

it("firecrawl_extract (3.23.0) runs an extract job to its end: the model's data, each page and the call charged once", async () => {
  assert.equal(client.getServerVersion()?.version, '3.23.0');
  const start = await balanceOf(service);
  const startedAt = Date.now();
  model.script({ content: '{"teas":["Sencha","Assam"]}' });
  const answer = (await client.callTool(
    {
      name: 'firecrawl_extract',
      arguments: {
        urls: [site.url('/green'), site.url('/black')],
        prompt: 'Name the teas',
        schema: SCHEMA,
      },
    },
    undefined,
    { timeout: TOOL_TIMEOUT_MS },
  )) as { isError?: boolean; content?: { type: string; text?: string }[] };
  const text = (answer.content ?? []).map((part) => part.text ?? '').join('\n');
  assert.notEqual(answer.isError, true, text);
  const result = JSON.parse(text) as { status?: string; data?: unknown; creditsUsed?: number };
  assert.equal(result.status, 'completed', text);
  assert.deepEqual(result.data, { teas: ['Sencha', 'Assam'] });

  assert.deepEqual(model.problems, []);
  assert.equal(model.requests.length, 1);
  const user = model.requests[0]?.messages.at(-1)?.content ?? '';
  assert.match(user, /Sencha is a green tea/);
  assert.match(user, /Assam is a black tea/);
  assert.deepEqual(model.requests[0]?.response_format?.json_schema?.schema, SCHEMA);
  assert.equal(site.hits('/green'), 1);
  assert.equal(site.hits('/black'), 1);

  // The ledger: two page settles of a fetch each and one model call, every reservation ended,
  // and the balance down by what the answer says it cost.
  const rows = await service.running.store.db
    .selectFrom('ledger')
    .select(['request_id', 'kind', 'amount'])
    .where('account_id', '=', service.accountId)
    .where('created_at', '>=', startedAt)
    .execute();
  const settles = rows.filter((row) => row.kind === 'settle').map((row) => Number(row.amount));
  assert.deepEqual(settles.sort(), [1, 1, PRICE_MODEL_CALL].sort(), JSON.stringify(rows));
  const ended = new Set(
    rows.filter((row) => ['settle', 'refund'].includes(row.kind)).map((row) => row.request_id),
  );
  for (const row of rows.filter((r) => r.kind === 'reserve')) {
    assert.ok(ended.has(row.request_id), `reservation ${row.request_id} left open`);
  }
  assert.equal(result.creditsUsed, 2 + PRICE_MODEL_CALL);
  assert.equal(start - (await balanceOf(service)), 2 + PRICE_MODEL_CALL);

  const address = new URL(service.baseUrl);
  assert.deepEqual(
    new Set(mcp.egress()),
    new Set([`${address.hostname}:${address.port}`]),
    mcp.stderr(),
  );
});
