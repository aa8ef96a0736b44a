/**
 * Turning Playwright/Chromium failures into catalog errors. Chromium reports network
 * failures as `net::ERR_*` codes inside the message; the ones naming the proxy trigger the
 * failover to the next proxy (contract 2.20).
 */
import { type AppError, appError, isAppError } from '../../../errors.js';

const PROXY_CODES = new Set([
  'ERR_PROXY_CONNECTION_FAILED',
  'ERR_TUNNEL_CONNECTION_FAILED',
  'ERR_PROXY_AUTH_UNSUPPORTED',
  'ERR_PROXY_AUTH_REQUESTED',
  'ERR_PROXY_CERTIFICATE_INVALID',
  'ERR_NO_SUPPORTED_PROXIES',
  'ERR_SOCKS_CONNECTION_FAILED',
  'ERR_MANDATORY_PROXY_CONFIGURATION_FAILED',
]);

const READABLE: Record<string, string> = {
  ERR_NAME_NOT_RESOLVED: 'could not resolve the host',
  ERR_NAME_RESOLUTION_FAILED: 'could not resolve the host',
  ERR_CONNECTION_REFUSED: 'connection refused',
  ERR_CONNECTION_RESET: 'connection reset',
  ERR_CONNECTION_CLOSED: 'connection closed',
  ERR_CONNECTION_TIMED_OUT: 'connection timed out',
  ERR_ADDRESS_UNREACHABLE: 'address unreachable',
  ERR_EMPTY_RESPONSE: 'empty response',
  ERR_TOO_MANY_REDIRECTS: 'too many redirects',
  ERR_INVALID_RESPONSE: 'invalid response',
  ERR_INVALID_REDIRECT: 'invalid redirect',
  ERR_UNSAFE_PORT: 'port not allowed',
  ERR_SSL_PROTOCOL_ERROR: 'TLS handshake failed',
};

/** The `net::ERR_*` code in an error message, without the prefix. */
export function netErrorCode(error: unknown): string | null {
  const message = error instanceof Error ? error.message : String(error);
  return /net::(ERR_[A-Z0-9_]+)/.exec(message)?.[1] ?? null;
}

export function isProxyFailure(error: unknown): boolean {
  const code = netErrorCode(error);
  return code !== null && PROXY_CODES.has(code);
}

/** The browser, the context or the page went away under us (crash, kill, retirement). */
export function isClosedError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /has been closed|Target closed|browser has disconnected|Target crashed|Page crashed|Browser closed/i.test(
    message,
  );
}

/** A navigation failure as FETCH_FAILED with a short reason. */
export function navigationError(error: unknown): AppError {
  const code = netErrorCode(error);
  if (code === null) {
    const message = error instanceof Error ? error.message : String(error);
    if (/Download is starting/i.test(message))
      return appError('FETCH_FAILED', 'the URL is a download');
    return appError('FETCH_FAILED', firstLine(message));
  }
  if (code.startsWith('ERR_CERT_'))
    return appError('FETCH_FAILED', `TLS certificate error (${code})`);
  return appError('FETCH_FAILED', READABLE[code] ?? code);
}

/** The first line of a Playwright message, without the `page.goto: ` style prefix or call log. */
export function firstLine(message: string): string {
  const line = message.split('\n')[0] ?? message;
  return line.replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '').trim();
}

/** Anything that is not already a catalog error becomes BROWSER_FAILED. */
export function asBrowserFailure(error: unknown, fallback?: string): AppError {
  if (isAppError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return appError('BROWSER_FAILED', fallback ?? firstLine(message));
}
