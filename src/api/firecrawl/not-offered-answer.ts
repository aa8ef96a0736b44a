/**
 * The door's answer to a Firecrawl endpoint it does not offer: 404 in Firecrawl's envelope,
 * code NOT_OFFERED (a 4xx: the SDKs do not retry it). To firecrawl-mcp (its calls carry an
 * `mcp-…` origin) the same text comes as `200 {success: false, error, agent_hints}`: its tools
 * drop the body of a failed answer ("Request failed with status code 404") or, for search and
 * find_tools, fail their own output schema on it (MCP error -32602), so the agent would never
 * read why; the fields its output schemas all allow carry the text instead.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendFirecrawlError } from './firecrawl-errors.js';

function fromFirecrawlMcp(request: FastifyRequest): boolean {
  const header = request.headers['x-origin'];
  const body = request.body as { origin?: unknown } | undefined;
  const origin = typeof header === 'string' ? header : body?.origin;
  return typeof origin === 'string' && origin.startsWith('mcp');
}

export function sendNotOffered(request: FastifyRequest, reply: FastifyReply, error: string) {
  if (fromFirecrawlMcp(request)) {
    // A string, so a route's 200 schema (the scrape's `data`) does not serialize it.
    return reply
      .code(200)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify({ success: false, error, agent_hints: [error] }));
  }
  return sendFirecrawlError(reply, { status: 404, code: 'NOT_OFFERED', error });
}
