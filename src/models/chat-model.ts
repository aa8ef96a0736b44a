/**
 * One call to an OpenAI-compatible chat endpoint (`POST <base>/chat/completions`), through
 * undici, which the service has already: the one request shape this needs does not justify
 * the `openai` client (its retries and ten-minute default time-out would have to be undone).
 * Every failure is a catalog error: a time-out is MODEL_TIMED_OUT, anything else the server
 * says or fails to say is MODEL_FAILED with the reason; never a hang.
 */
import { request } from 'undici';
import type { ModelSettings } from '../config.js';
import { appError } from '../errors.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type ResponseFormat =
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema: unknown; strict: boolean } };

export interface ChatAnswer {
  content: string;
  promptTokens: number;
  completionTokens: number;
}

/** What the model's server may send back at most: a runaway answer is cut off, not buffered. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export interface ChatModel {
  readonly name: string;
  /** The settings' cut of the page text sent to the model. */
  readonly contextChars: number;
  readonly callPrice: number;
  chat(
    messages: ChatMessage[],
    format: ResponseFormat | null,
    signal?: AbortSignal,
  ): Promise<ChatAnswer>;
}

export function createChatModel(settings: ModelSettings): ChatModel {
  const endpoint = `${settings.baseUrl}/chat/completions`;
  return {
    name: settings.name,
    contextChars: settings.contextChars,
    callPrice: settings.callPrice,
    async chat(messages, format, signal) {
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        const response = await request(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: settings.name,
            messages,
            temperature: 0,
            ...(format ? { response_format: format } : {}),
          }),
          signal: both,
          headersTimeout: settings.timeoutMs,
          bodyTimeout: settings.timeoutMs,
        });
        const text = await boundedText(response.body);
        if (response.statusCode >= 400) {
          throw appError('MODEL_FAILED', `HTTP ${response.statusCode}: ${errorTextOf(text)}`);
        }
        return answerOf(text);
      } catch (error) {
        if (timeout.aborted) throw appError('MODEL_TIMED_OUT', settings.timeoutMs);
        if (signal?.aborted) throw signal.reason;
        if (error instanceof Error && error.name === 'AppError') throw error;
        const code = (error as { code?: string }).code;
        throw appError(
          'MODEL_FAILED',
          code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
            ? `no answer within ${settings.timeoutMs} ms`
            : `cannot reach ${settings.baseUrl}: ${(error as Error).message}`,
        );
      }
    },
  };
}

async function boundedText(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      body.destroy();
      throw appError('MODEL_FAILED', `its answer is larger than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function errorTextOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string };
    const message = typeof body.error === 'string' ? body.error : body.error?.message;
    if (typeof message === 'string') return message.slice(0, 300);
  } catch {
    // Not JSON: the text itself, cut.
  }
  return text.slice(0, 300) || 'no body';
}

function answerOf(text: string): ChatAnswer {
  let body: {
    choices?: { message?: { content?: unknown } }[];
    usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
  };
  try {
    body = JSON.parse(text);
  } catch {
    throw appError('MODEL_FAILED', 'its server answered something that is not JSON');
  }
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') {
    throw appError('MODEL_FAILED', 'its answer has no choices[0].message.content');
  }
  const count = (value: unknown) => (typeof value === 'number' && value >= 0 ? value : 0);
  return {
    content,
    promptTokens: count(body.usage?.prompt_tokens),
    completionTokens: count(body.usage?.completion_tokens),
  };
}
