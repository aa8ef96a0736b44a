/**
 * HTTP's own failures: the ones only this layer can have (API keys, unknown routes and
 * methods, the URL, request bodies, what the HTTP parser rejects). Same shape as the
 * service's catalog in src/errors.ts, published with it in docs/errors.md, and the same test
 * keeps both in step with that reference.
 */
import type { FastifyError } from 'fastify';
import { echoed } from '../errors.js';

const catalog = {
  API_KEY_REQUIRED: [403, () => 'API Key is required!'],
  INVALID_API_KEY: [403, () => 'Invalid API key!'],
  NOT_FOUND: [404, () => 'Not found!'],
  METHOD_NOT_ALLOWED: [405, (method: string) => `Method ${method} is not allowed on this route`],
  /** Bad percent-encoding in the path. */
  MALFORMED_URL: [400, () => 'Malformed URL'],
  URL_TOO_LONG: [414, () => 'Request URL is too long'],
  INVALID_CONTENT_TYPE: [400, () => 'Invalid Content-Type header'],
  INVALID_JSON_BODY: [400, (reason: string) => `Request body is not valid JSON: ${reason}`],
  BODY_TOO_LARGE: [413, (limit: number) => `Request body is larger than ${limit} bytes`],
  UNSUPPORTED_MEDIA_TYPE: [415, () => 'Request body must be JSON (Content-Type: application/json)'],
  /** A route schema's validation failed (routes whose module validates never get here). */
  INVALID_REQUEST: [
    400,
    (where: string, field: string, problem: string) => `Invalid ${where}: ${field} ${problem}`,
  ],
  /** Written on the socket: Node's HTTP parser refused the request before Fastify saw it. */
  HEADERS_TOO_LARGE: [431, () => 'Request header fields too large'],
  /** An Expect header other than 100-continue (RFC 9110 10.1.1), answered before routing. */
  EXPECTATION_FAILED: [417, () => 'Only Expect: 100-continue is supported'],
  /** An HTTP/1.1 request without Host (RFC 9112 3.2). */
  HOST_REQUIRED: [400, () => 'Host header is required'],
  /** Written on the socket, like HEADERS_TOO_LARGE: any other request the parser refused. */
  UNPARSABLE_REQUEST: [400, () => 'Bad request'],
} as const satisfies Record<string, readonly [number, (...args: never[]) => string]>;

export type HttpErrorCode = keyof typeof catalog;
type ArgsOf<C extends HttpErrorCode> = Parameters<(typeof catalog)[C][1]>;

/** What an error answer is made of; AppError (src/errors.ts) and HttpError both have it. */
export interface ErrorAnswer {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export class HttpError extends Error implements ErrorAnswer {
  readonly code: HttpErrorCode;
  readonly status: number;

  constructor(code: HttpErrorCode, status: number, message: string) {
    super(message);
    this.name = 'HttpError';
    this.code = code;
    this.status = status;
  }
}

export function httpError<C extends HttpErrorCode>(code: C, ...args: ArgsOf<C>): HttpError {
  const [status, render] = catalog[code];
  return new HttpError(code, status, (render as (...a: unknown[]) => string)(...args.map(echoed)));
}

export function isHttpError(value: unknown): value is HttpError {
  return value instanceof HttpError;
}

export const httpErrorCodes = Object.keys(catalog) as HttpErrorCode[];

/**
 * Fastify's own errors as answers: body parsing and schema validation get our texts;
 * its other 4xx (proto poisoning...) keep their status and text. Null: not a client error.
 */
export function fromFastifyError(error: FastifyError, bodyLimit: number): ErrorAnswer | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return httpError('INVALID_JSON_BODY', error.message);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return httpError('BODY_TOO_LARGE', bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return httpError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_INVALID_TYPE':
      return httpError('INVALID_CONTENT_TYPE');
  }
  if (error.validation) {
    const first = error.validation[0];
    const where = error.validationContext ?? 'request';
    const path = first?.instancePath
      ? first.instancePath.replace(/^\//, '').replace(/\//g, '.')
      : '';
    const field = path || (first?.params as { missingProperty?: string })?.missingProperty || where;
    return httpError('INVALID_REQUEST', where, field, first?.message ?? 'is invalid');
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status, message: echoed(error.message) };
  return null;
}
