/**
 * A loopback OpenAI-compatible chat server (`POST /v1/chat/completions`) for the model
 * formats: it checks every request as such a server would (model, messages, response_format
 * with its JSON schema, the bearer key) and lists what was wrong in `problems`, and answers
 * what the test scripts: content (as Ollama, vLLM or OpenAI wrap it, with usage), an HTTP
 * error, or no answer for a while.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: {
    type: string;
    json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean };
  };
  temperature?: number;
  authorization: string | undefined;
}

/** What one call is answered with. */
export type ModelReply =
  | { content: string }
  | { status: number; body: string }
  /** Headers and body only after this long (a slow model). */
  | { delayMs: number; content: string };

export interface ModelServer {
  /** The base URL as OPENAI_BASE_URL takes it (`.../v1`). */
  readonly baseUrl: string;
  readonly requests: ChatRequest[];
  /** What was wrong with requests received (empty: every request was well formed). */
  readonly problems: string[];
  /** How the next calls are answered, in order; then `fallback`. */
  script(...replies: ModelReply[]): void;
  /** The answer once the script has run out (default: `{}` as content). */
  fallback(reply: (request: ChatRequest) => ModelReply): void;
  reset(): void;
  close(): Promise<void>;
}

export interface ModelServerOptions {
  /** The model name every request must carry. */
  model: string;
  /** The key every request must carry as a bearer token; null: none expected. */
  apiKey: string | null;
}

function problemsOf(
  body: unknown,
  options: ModelServerOptions,
  auth: string | undefined,
): string[] {
  const problems: string[] = [];
  const request = body as Partial<ChatRequest> | null;
  if (!request || typeof request !== 'object') return ['the body is not a JSON object'];
  if (request.model !== options.model) problems.push(`model ${String(request.model)}`);
  const expectedAuth = options.apiKey ? `Bearer ${options.apiKey}` : undefined;
  if (auth !== expectedAuth) problems.push(`authorization ${String(auth)}`);
  const messages = request.messages;
  if (!Array.isArray(messages) || messages.length === 0) problems.push('no messages');
  else {
    for (const message of messages) {
      if (!['system', 'user', 'assistant'].includes(message?.role)) {
        problems.push(`a message of role ${String(message?.role)}`);
      }
      if (typeof message?.content !== 'string') problems.push('a message without text content');
    }
    if (messages.at(-1)?.role !== 'user') problems.push('the last message is not the user');
  }
  const format = request.response_format;
  if (format !== undefined) {
    if (format.type === 'json_schema') {
      const schema = format.json_schema?.schema;
      if (!format.json_schema?.name || !/^[A-Za-z0-9_-]{1,64}$/.test(format.json_schema.name)) {
        problems.push('json_schema without a valid name');
      }
      if (!schema || typeof schema !== 'object') problems.push('json_schema without a schema');
    } else if (format.type !== 'json_object' && format.type !== 'text') {
      problems.push(`response_format ${String(format.type)}`);
    }
  }
  return problems;
}

function completion(content: string, request: ChatRequest) {
  const prompt = request.messages.reduce((n, m) => n + m.content.length, 0);
  return JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: Math.ceil(prompt / 4),
      completion_tokens: Math.ceil(content.length / 4),
      total_tokens: Math.ceil(prompt / 4) + Math.ceil(content.length / 4),
    },
  });
}

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const requests: ChatRequest[] = [];
  const problems: string[] = [];
  let scripted: ModelReply[] = [];
  let fallback: (request: ChatRequest) => ModelReply = () => ({ content: '{}' });
  const timers = new Set<NodeJS.Timeout>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      problems.push(`${req.method} ${req.url}`);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = null;
    }
    if (!String(req.headers['content-type']).startsWith('application/json')) {
      problems.push(`content-type ${req.headers['content-type']}`);
    }
    const found = problemsOf(body, options, req.headers.authorization);
    problems.push(...found);
    if (found.length > 0) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: found.join('; ') } }));
      return;
    }
    const request = { ...(body as ChatRequest), authorization: req.headers.authorization };
    requests.push(request);
    const reply = scripted.shift() ?? fallback(request);
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body);
      return;
    }
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(completion(reply.content, request));
    };
    if ('delayMs' in reply) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, reply.delayMs);
      timers.add(timer);
    } else send();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    problems,
    script: (...replies) => {
      scripted.push(...replies);
    },
    fallback: (reply) => {
      fallback = reply;
    },
    reset() {
      requests.length = 0;
      problems.length = 0;
      scripted = [];
      fallback = () => ({ content: '{}' });
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
}
