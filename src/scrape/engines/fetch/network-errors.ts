/**
 * Turns what undici and Node's sockets throw into the contract's answers: a refused
 * address is URL_NOT_ALLOWED (400), anything else that kept us from the page is
 * FETCH_FAILED (502) with a short reason a person can act on.
 */
import { type AppError, appError, isAppError } from '../../../errors.js';
import { AddressNotAllowedError } from '../../net/ssrf-guard.js';

interface CodedError {
  code?: string;
  message?: string;
  cause?: unknown;
  errors?: unknown[];
  port?: number;
  address?: string;
  hostname?: string;
}

/** The error itself, its causes and the members of an AggregateError (Happy Eyeballs). */
function* chain(error: unknown): Generator<CodedError> {
  const seen = new Set<unknown>();
  const queue = [error];
  while (queue.length > 0) {
    const next = queue.shift();
    if (typeof next !== 'object' || next === null || seen.has(next)) continue;
    seen.add(next);
    const coded = next as CodedError;
    yield coded;
    queue.push(coded.cause, ...(coded.errors ?? []));
  }
}

function firstCode(error: unknown): string {
  for (const e of chain(error)) if (e.code) return e.code;
  return '';
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_|HOSTNAME_MISMATCH)/;

/** A short human reason for a network failure while fetching from `host`. */
export function describeNetworkError(error: unknown, host: string): string {
  const code = firstCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return `could not resolve ${host}`;
  }
  if (code === 'ECONNREFUSED') return `connection refused by ${host}`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return `connection to ${host} was closed unexpectedly`;
  }
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `connection to ${host} timed out`;
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${host} is unreachable`;
  if (TLS_CODE.test(code)) return `TLS error with ${host} (${code})`;
  if (code.startsWith('HPE_') || code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'UND_ERR_INFO') {
    return `invalid HTTP response from ${host}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

/** A proxy (not the target) failed; carries the proxy's address without credentials. */
export class ProxyFailure extends Error {
  readonly proxy: string;
  constructor(proxyUrl: string, cause: unknown) {
    const { host } = new URL(proxyUrl);
    const status = /proxy response \((\d+)\)/i.exec(String((cause as Error)?.message))?.[1];
    super(
      `proxy ${host} ${status ? `answered ${status}` : `failed: ${describeNetworkError(cause, host)}`}`,
      { cause },
    );
    this.name = 'ProxyFailure';
    this.proxy = host;
  }
}

/** The AppError for anything thrown while fetching from `host`. */
export function toAppError(error: unknown, host: string): AppError {
  if (isAppError(error)) return error;
  if (error instanceof ProxyFailure) return appError('FETCH_FAILED', error.message);
  for (const e of chain(error)) {
    if (e instanceof AddressNotAllowedError) return appError('URL_NOT_ALLOWED', e.host);
  }
  return appError('FETCH_FAILED', describeNetworkError(error, host));
}

/**
 * Whether the failure is the proxy's (unreachable, refused us, or would not open the
 * tunnel) rather than the target's, so another proxy is worth a try (contract 2.20).
 */
export function isProxyFailure(error: unknown, proxyUrl: string): boolean {
  if (isAppError(error)) return false;
  const proxy = new URL(proxyUrl);
  const proxyPort = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
  for (const e of chain(error)) {
    // undici: "Proxy response (407) !== 200 when HTTP Tunneling"
    if (/proxy response/i.test(e.message ?? '')) return true;
    if (e.port === proxyPort && e.code && /^(E[A-Z]+|UND_ERR_)/.test(e.code)) return true;
    if (e.code === 'ENOTFOUND' && e.hostname === proxy.hostname) return true;
    // Through a tunnel undici only ever connects to the proxy itself.
    if (e.code === 'UND_ERR_CONNECT_TIMEOUT') return true;
  }
  return false;
}
