/**
 * The body that names a key (POST /api/keys, PATCH /api/keys/{id}): `{name}` alone, a string
 * trimmed to 1..100 characters (counted as code points, as a workflow's name is), or null to
 * clear it. At creation no body or no name leaves the key unnamed; a rename needs `name`.
 */
import { appError } from '../errors.js';

const NAME_MAX_LENGTH = 100;

export function parseKeyNameBody(body: unknown, required = false): string | null {
  if ((body === undefined || body === null) && !required) return null;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw appError('BAD_REQUEST', 'Request body must be a JSON object');
  }
  for (const key of Object.keys(body)) if (key !== 'name') throw appError('ONLY_KEY_NAME');
  const value = (body as { name?: unknown }).name;
  if (value === undefined && required) throw appError('NAME_REQUIRED');
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw appError('INVALID_NAME');
  const name = value.trim();
  const length = [...name].length;
  if (length < 1 || length > NAME_MAX_LENGTH) throw appError('INVALID_NAME');
  return name;
}
