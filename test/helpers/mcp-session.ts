/**
 * A firecrawl-mcp server as an MCP client starts it: a child over stdio, FIRECRAWL_API_URL at
 * the service (no /v1 or /v2 suffix: the SDK adds /v2/...), the service's key as
 * FIRECRAWL_API_KEY, nothing else on top of the transport's safe defaults (PATH, HOME, ...),
 * in a working directory of its own (the server loads a .env from there), with the egress
 * guard preloaded (its `[egress] host:port` lines gathered from stderr).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EGRESS_GUARD_IMPORT } from './egress-guard.js';

export interface McpSession {
  readonly client: Client;
  /** The child's working directory. */
  readonly workDir: string;
  /** What the child wrote to stderr so far. */
  stderr(): string;
  /** The destinations its egress guard logged. */
  egress(): string[];
  /** Ends the child (stdin closed, then SIGTERM, then SIGKILL) and removes its directory. */
  close(): Promise<void>;
}

export async function startMcpSession(
  serverPath: string,
  service: { baseUrl: string; apiKey: string },
  timeoutMs: number,
): Promise<McpSession> {
  const workDir = mkdtempSync(join(tmpdir(), 'pagegrab-mcp-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', EGRESS_GUARD_IMPORT, serverPath],
    env: { FIRECRAWL_API_URL: service.baseUrl, FIRECRAWL_API_KEY: service.apiKey },
    cwd: workDir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'pagegrab-test', version: '1.0.0' });
  await client.connect(transport, { timeout: timeoutMs });
  return {
    client,
    workDir,
    stderr: () => stderr,
    egress: () => [...stderr.matchAll(/^\[egress\] (.+)$/gm)].map((match) => match[1] ?? ''),
    close: async () => {
      await client.close().catch(() => {});
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
