/**
 * What the door asks the model for: fields of a page as JSON (a schema and/or a prompt), or a
 * summary. A JSON answer is parsed and checked against the caller's schema (ajv, the
 * validator Fastify brings); a wrong one is sent back once with what is wrong, and a second
 * wrong answer is MODEL_FAILED naming the first problem. The page text is cut to the model's
 * context setting before it is sent.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { appError } from '../errors.js';
import type { ChatAnswer, ChatMessage, ChatModel, ResponseFormat } from './chat-model.js';

export interface JsonRequest {
  schema?: Record<string, unknown> | undefined;
  prompt?: string | undefined;
  systemPrompt?: string | undefined;
}

export interface ModelResult<T> {
  value: T;
  promptTokens: number;
  completionTokens: number;
}

const ajv = new Ajv({ allErrors: false, strict: false, validateFormats: false });
/** Compiled once per distinct schema: batches and extracts ask with the same one many times. */
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 256;

/** The caller's schema, compiled; 400 before any scrape when it is no JSON schema. */
export function schemaValidator(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  const known = compiled.get(key);
  if (known) return known;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    throw appError('BAD_REQUEST', `Invalid JSON schema: ${(error as Error).message}`);
  }
  if (compiled.size >= MAX_COMPILED) compiled.clear();
  compiled.set(key, validate);
  return validate;
}

const SYSTEM =
  'You extract information from web pages. Answer with one JSON value and nothing else: no prose, no code fences.';

function pageText(pages: readonly { url: string; markdown: string }[], limit: number): string {
  const share = Math.max(1, Math.floor(limit / Math.max(1, pages.length)));
  return pages
    .map((page) => `Page: ${page.url}\n\n${page.markdown.slice(0, share)}`)
    .join('\n\n---\n\n');
}

/** Models wrap JSON in fences or prose despite the instruction; the first JSON value counts. */
function parseJson(content: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  const text = (fenced?.[1] ?? content).trim();
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `its answer is not JSON (${(error as Error).message})` };
  }
}

function problemOf(validate: ValidateFunction | null, parsed: ReturnType<typeof parseJson>) {
  if (!parsed.ok) return parsed.reason;
  if (validate && !validate(parsed.value)) {
    const first = validate.errors?.[0];
    return `its answer does not match the schema: ${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}`;
  }
  return null;
}

export async function extractJson(
  model: ChatModel,
  pages: readonly { url: string; markdown: string }[],
  request: JsonRequest,
  signal?: AbortSignal,
): Promise<ModelResult<unknown>> {
  const validate = request.schema ? schemaValidator(request.schema) : null;
  const task = [
    request.prompt
      ? `Task: ${request.prompt}`
      : 'Task: extract the information the schema asks for.',
    request.schema
      ? `The answer must match this JSON schema:\n${JSON.stringify(request.schema)}`
      : '',
    `Content:\n\n${pageText(pages, model.contextChars)}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content: request.systemPrompt ? `${SYSTEM}\n\n${request.systemPrompt}` : SYSTEM,
    },
    { role: 'user', content: task },
  ];
  const format: ResponseFormat = request.schema
    ? {
        type: 'json_schema',
        json_schema: { name: 'extraction', schema: request.schema, strict: false },
      }
    : { type: 'json_object' };
  const tokens = { promptTokens: 0, completionTokens: 0 };
  const ask = async () => {
    const answer: ChatAnswer = await model.chat(messages, format, signal);
    tokens.promptTokens += answer.promptTokens;
    tokens.completionTokens += answer.completionTokens;
    return answer.content;
  };
  const first = await ask();
  let parsed = parseJson(first);
  const problem = problemOf(validate, parsed);
  if (problem === null && parsed.ok) return { value: parsed.value, ...tokens };
  // One repair: the model sees its answer and what is wrong with it.
  messages.push(
    { role: 'assistant', content: first },
    {
      role: 'user',
      content: `That answer is wrong: ${problem}. Answer again with only the corrected JSON.`,
    },
  );
  parsed = parseJson(await ask());
  const again = problemOf(validate, parsed);
  if (again !== null || !parsed.ok) throw appError('MODEL_FAILED', `${again} (after one repair)`);
  return { value: parsed.value, ...tokens };
}

export async function summarize(
  model: ChatModel,
  page: { url: string; markdown: string },
  signal?: AbortSignal,
): Promise<ModelResult<string>> {
  const answer = await model.chat(
    [
      { role: 'system', content: 'You summarize web pages in a few sentences of plain text.' },
      { role: 'user', content: `Summarize this page.\n\n${pageText([page], model.contextChars)}` },
    ],
    null,
    signal,
  );
  const value = answer.content.trim();
  if (!value) throw appError('MODEL_FAILED', 'its summary is empty');
  return { value, promptTokens: answer.promptTokens, completionTokens: answer.completionTokens };
}
