import type { FastifyRequest } from 'fastify';

/** The service's address for links it hands out: PUBLIC_URL, else where the request came. */
export function baseUrlOf(request: FastifyRequest, publicUrl: string | null): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}
