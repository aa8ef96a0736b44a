/**
 * README's table of Firecrawl endpoints and MCP tools, kept true: each endpoint row is called
 * on the running service ("works": a route of the door answered, whatever the empty body made
 * of it; "not offered": 404 with code NOT_OFFERED), the WebSocket row is opened, and the MCP
 * rows are firecrawl-mcp's own tools/list.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { WebSocket } from 'undici';
import { startService, type TestService } from '../../helpers/service.js';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const SECTION = README.slice(README.indexOf('### Firecrawl endpoints and MCP tools'));
const ID = '0193a7c2-0000-7000-8000-000000000000';

/** The rows `| \`<first>\` | <answer> |` of the table whose header starts with `header`. */
function rowsOf(header: string): [string, string][] {
  const table = SECTION.slice(SECTION.indexOf(`| ${header} |`)).split('\n\n')[0] ?? '';
  return [...table.matchAll(/^\| `([^`]+)` \| ([^|]+) \|$/gm)].map((match) => [
    String(match[1]),
    String(match[2]).trim(),
  ]);
}

let service: TestService;
before(async () => {
  service = await startService();
});
after(() => service?.close());

async function call(method: string, path: string) {
  const withBody = method !== 'GET' && method !== 'DELETE';
  const response = await fetch(`${service.baseUrl}${path.replaceAll('{id}', ID)}`, {
    method,
    headers: {
      authorization: `Bearer ${service.apiKey}`,
      ...(withBody ? { 'content-type': 'application/json' } : {}),
    },
    ...(withBody ? { body: '{}' } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function closeOf(path: string) {
  const socket = new WebSocket(`${service.baseUrl.replace(/^http/, 'ws')}${path}`, service.apiKey);
  return new Promise<{ code: number; reason: string }>((resolve, reject) => {
    socket.addEventListener('error', () => reject(new Error(`no WebSocket at ${path}`)));
    socket.addEventListener('close', (event) =>
      resolve({ code: event.code, reason: event.reason }),
    );
  });
}

describe("README's table of Firecrawl endpoints and MCP tools", () => {
  it('says of each endpoint what the service answers', async () => {
    const rows = rowsOf('endpoint');
    assert.ok(rows.length > 40, `the table was read (${rows.length} rows)`);
    for (const [endpoint, answer] of rows) {
      const [method = '', ...rest] = endpoint.split(' ');
      if (method === 'WebSocket') {
        for (const path of rest.join(' ').split(', ')) {
          const closed = await closeOf(path.replaceAll('{id}', ID));
          assert.deepEqual(
            [closed.code, JSON.parse(closed.reason)],
            [1008, { type: 'error', error: 'Job not found' }],
            path,
          );
        }
        continue;
      }
      const { status, body } = await call(method, rest.join(' '));
      const notOffered = status === 404 && body.code === 'NOT_OFFERED';
      if (answer === 'not offered') {
        assert.ok(notOffered, `${endpoint}: ${status} ${JSON.stringify(body)}`);
        assert.match(String(body.error), /does not offer Firecrawl's .+\. \S/);
      } else {
        assert.equal(answer, 'works', endpoint);
        const unknown = /has no Firecrawl endpoint/.test(String(body.error));
        assert.ok(!notOffered && !unknown, `${endpoint}: ${status} ${JSON.stringify(body)}`);
      }
    }
  });

  it('lists exactly the tools firecrawl-mcp lists', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [createRequire(import.meta.url).resolve('firecrawl-mcp/dist/index.js')],
      env: { FIRECRAWL_API_URL: service.baseUrl, FIRECRAWL_API_KEY: service.apiKey },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'pagegrab-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const rows = rowsOf('MCP tool');
      assert.deepEqual(rows.map(([name]) => name).sort(), tools.map((tool) => tool.name).sort());
    } finally {
      await client.close();
    }
  });
});
