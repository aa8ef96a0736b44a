/**
 * API-key authentication (contract 1.1–1.2): `api_key` in the query or `X-API-Key`; both
 * present must agree. Missing → 403 `API Key is required!`, unknown → 403 `Invalid API key!`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../../accounts/account-store.js';
import type { ApiKeyLookup } from '../../accounts/api-key-lookup.js';
import { httpError } from '../http-errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the authenticate pre-handler on every authenticated route. */
    account: Account | null;
  }
}

function single(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return single(value[0]);
  return undefined;
}

export function keyOf(request: FastifyRequest): string | undefined {
  const fromQuery = single((request.query as Record<string, unknown> | undefined)?.api_key);
  const fromHeader = single(request.headers['x-api-key']);
  if (fromQuery !== undefined && fromHeader !== undefined && fromQuery !== fromHeader) {
    throw httpError('INVALID_API_KEY');
  }
  return fromQuery ?? fromHeader;
}

export function createAuthenticate(keys: Pick<ApiKeyLookup, 'find'>) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
    const key = keyOf(request);
    if (key === undefined || key === '') throw httpError('API_KEY_REQUIRED');
    const account = await keys.find(key);
    if (!account) throw httpError('INVALID_API_KEY');
    request.account = account;
  };
}

/** The caller's account on a route that ran `authenticate`. */
export function accountOf(request: FastifyRequest): Account {
  if (!request.account) throw httpError('API_KEY_REQUIRED');
  return request.account;
}
