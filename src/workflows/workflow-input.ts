/**
 * What the workflow endpoints accept, checked here rather than by Fastify's Ajv: Ajv would
 * coerce (`name: 5` → "5") and insert defaults, and configs carry the scraper's own rules
 * and texts (scrape/params). Query values come as strings, bodies as parsed JSON.
 */
import { appError } from '../errors.js';
import { parseBooleanParam } from '../scrape/params/boolean.js';
import { parseIntegerParam } from '../scrape/params/integer.js';
import { invalidValue, repeatedParameter } from '../scrape/params/invalid.js';

export const NAME_MAX_LENGTH = 100;
export const HISTORY_LIMIT = { min: 1, max: 1000, default: 100 } as const;
/** The list's optional page size (an addition: without `limit` the list is complete). */
export const LIST_LIMIT = { min: 1, max: 10_000 } as const;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A body must be a JSON object; anything else (or none) is treated as an empty one. */
export function bodyObject(body: unknown): Json {
  if (body === undefined || body === null) return {};
  if (!isObject(body)) throw appError('BAD_REQUEST', 'Request body must be a JSON object');
  return body;
}

/** Contract 26: a string, trimmed, 1..100 characters (counted as code points). */
export function parseName(value: unknown): string {
  if (value === undefined || value === null) throw appError('NAME_REQUIRED');
  if (typeof value !== 'string') throw appError('INVALID_NAME');
  const name = value.trim();
  const length = [...name].length;
  if (length < 1 || length > NAME_MAX_LENGTH) throw appError('INVALID_NAME');
  return name;
}

export interface EditInput {
  name?: string;
  /** The merge patch to apply to the saved config (undefined: config unchanged). */
  configPatch?: unknown;
}

/** Contract 29: `name` and/or `config`, nothing else, at least one. */
export function parseEditBody(body: unknown): EditInput {
  const input = bodyObject(body);
  for (const key of Object.keys(input)) {
    if (key !== 'name' && key !== 'config') throw appError('ONLY_NAME_AND_CONFIG');
  }
  const edit: EditInput = {};
  if (Object.hasOwn(input, 'name')) edit.name = parseName(input.name);
  if (Object.hasOwn(input, 'config')) edit.configPatch = input.config;
  if (edit.name === undefined && !Object.hasOwn(input, 'config')) throw appError('NOTHING_TO_EDIT');
  return edit;
}

/** PATCH /api/workflow/{id}: `{name}` alone. */
export function parseRenameBody(body: unknown): string {
  const input = bodyObject(body);
  for (const key of Object.keys(input)) {
    if (key !== 'name') throw appError('ONLY_NAME_RENAME');
  }
  return parseName(input.name);
}

function single(query: Json, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw repeatedParameter(name);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export interface ListQuery {
  archived?: boolean;
  limit?: number;
  before?: string;
}

export function parseListQuery(query: Json): ListQuery {
  const out: ListQuery = {};
  const archived = single(query, 'archived');
  if (archived !== undefined) out.archived = parseBooleanParam('archived', archived);
  const limit = single(query, 'limit');
  if (limit !== undefined)
    out.limit = parseIntegerParam('limit', limit, LIST_LIMIT.min, LIST_LIMIT.max);
  const before = single(query, 'before');
  if (before !== undefined) out.before = before;
  return out;
}

export interface HistoryQuery {
  limit: number;
  before?: string;
}

export function parseHistoryQuery(query: Json): HistoryQuery {
  const limit = single(query, 'limit');
  const out: HistoryQuery = {
    limit:
      limit === undefined
        ? HISTORY_LIMIT.default
        : parseIntegerParam('limit', limit, HISTORY_LIMIT.min, HISTORY_LIMIT.max),
  };
  const before = single(query, 'before');
  if (before !== undefined) out.before = before;
  return out;
}

/** A `before` cursor naming nothing of the caller's is a client mistake, not an empty page. */
export function unknownCursor(): Error {
  return invalidValue('before', 'expected the id of an item of this list');
}
