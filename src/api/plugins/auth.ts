/**
 * API-key authentication (contract 1.1–1.2): `api_key` in the query, `X-API-Key`, or (what
 * Firecrawl's tools send) `Authorization: Bearer <key>`; several present must agree. Missing →
 * 403 `API Key is required!`, unknown → 403 `Invalid API key!` (the Firecrawl door answers
 * both with its own 401).
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

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  // Another scheme (Basic, from a proxy in front of us) is not ours to read.
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

export function keyOf(request: FastifyRequest): string | undefined {
  const given = [
    single((request.query as Record<string, unknown> | undefined)?.api_key),
    single(request.headers['x-api-key']),
    bearerOf(request),
  ].filter((key): key is string => key !== undefined);
  if (new Set(given).size > 1) throw httpError('INVALID_API_KEY');
  return given[0];
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
