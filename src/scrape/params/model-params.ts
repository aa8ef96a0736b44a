/**
 * `json_schema` and `json_prompt`: what the operator's model is asked about the page (the
 * `json` output). The schema is a JSON object (JSON-encoded in the query), bounded like every
 * caller's JSON; whether it is a valid JSON schema the planner asks the model side, before
 * anything is fetched (a 400 either way).
 */
import { invalidValue } from './invalid.js';
import { assertJsonDepth } from './json-depth.js';

/** A prompt is a question, not a page: longer ones are refused rather than cut. */
export const MAX_JSON_PROMPT_CHARS = 10_000;
/** The schema goes to the model with every call: a bound on what it may cost. */
export const MAX_JSON_SCHEMA_CHARS = 50_000;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseJsonSchema(value: unknown): Record<string, unknown> | null {
  let schema: unknown = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return null;
    if (value.length > MAX_JSON_SCHEMA_CHARS) {
      throw invalidValue('json_schema', `at most ${MAX_JSON_SCHEMA_CHARS} characters`);
    }
    try {
      schema = JSON.parse(value);
    } catch {
      schema = undefined;
    }
  } else if (isObject(value) && JSON.stringify(value).length > MAX_JSON_SCHEMA_CHARS) {
    throw invalidValue('json_schema', `at most ${MAX_JSON_SCHEMA_CHARS} characters`);
  }
  if (!isObject(schema)) throw invalidValue('json_schema', 'expected a JSON schema object');
  assertJsonDepth(schema);
  return schema;
}

export function parseJsonPrompt(value: unknown): string | null {
  if (typeof value !== 'string') throw invalidValue('json_prompt', 'expected a string');
  const prompt = value.trim();
  if (prompt === '') return null;
  if (prompt.length > MAX_JSON_PROMPT_CHARS) {
    throw invalidValue('json_prompt', `at most ${MAX_JSON_PROMPT_CHARS} characters`);
  }
  return prompt;
}
