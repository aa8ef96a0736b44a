/**
 * The Fastify instance and its type: logger, request ids, limits and the answers to requests
 * that fail before routing. Apart from app.ts so that routes can name the type without
 * importing the app that imports them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import { newId } from '../store/ids.js';
import { httpError } from './http-errors.js';
import { logDestination } from './log-destination.js';
import { RequestLogController, redactPaths, serializeRequest } from './logging.js';
import { sendError, writeSocketError } from './plugins/error-handler.js';

/** JSON bodies (workflow endpoints) are small: 1 MiB is generous. */
const BODY_LIMIT = 1024 * 1024;

export interface AppInstanceOptions {
  /** LOG_LEVEL. */
  logLevel: string;
  /** Where log lines go (tests capture them). Default: stdout, in batches (log-destination.ts). */
  logStream?: DestinationStream;
  /** Called once per answered request, with its log line (the metrics). */
  completed?: (request: FastifyRequest, reply: FastifyReply) => void;
}

export function createAppInstance(options: AppInstanceOptions) {
  // The last request each connection handed to the app: a parse error after it (a bad chunk,
  // a bad Transfer-Encoding, found while its body is read) belongs to that request, which may
  // have been answered already (a 415 sent before the body arrived).
  const handedOver = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();
  const app = Fastify({
    logger: {
      level: options.logLevel,
      redact: { paths: redactPaths, censor: '[REDACTED]' },
      serializers: { req: serializeRequest },
      stream: options.logStream ?? logDestination(),
    },
    logController: new RequestLogController(options.completed),
    // The scrape's request id (a UUIDv7, like every id here): the X-Request-Id a caller
    // sees is the requestId of its webhook answer, delivery and run record.
    genReqId: () => newId(),
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Bad percent-encoding never reaches the error handler; Fastify's default answer echoes
    // the whole URL, API key included. These skip onRequest, so the request id is set here.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      reply.header('X-Request-Id', request.id);
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      return sendError(reply, httpError(tooLong ? 'URL_TOO_LONG' : 'MALFORMED_URL'));
    },
    // Malformed requests the HTTP parser rejects still get the `{"error"}` shape.
    // One answer per request at most: if the request the parser is on already has one (even in
    // part), the connection just closes.
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => {
      const last = handedOver.get(socket);
      const mid = last !== undefined && (!last.req.complete || !last.res.writableEnded);
      if (!socket.writable || (mid && last.res.headersSent)) return socket.destroy();
      const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
      writeSocketError(socket, httpError(tooLarge ? 'HEADERS_TOO_LARGE' : 'UNPARSABLE_REQUEST'));
    },
    // A request without Host gets the JSON answer (app.ts), not Node's empty 400.
    http: { requireHostHeader: false },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handedOver.set(req.socket, { req, res });
  });
  return app;
}

export type AppInstance = ReturnType<typeof createAppInstance> & {
  authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
};
