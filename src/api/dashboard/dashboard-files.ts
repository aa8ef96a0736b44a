/** The dashboard (dashboard/, built by Vite) served at `/` (contract 35). */
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const DASHBOARD_CSP = [
  "default-src 'self'",
  "img-src 'self' blob: data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the built files in `dir` (DASHBOARD_DIR); without a build, nothing is served. */
export async function registerDashboard(app: FastifyInstance, dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    wildcard: false,
    index: ['index.html'],
    // The browser itself holds the dashboard to its own origin: no script, style or
    // request elsewhere, screenshots only as blob: URLs, never framed by another site.
    setHeaders: (reply) => reply.header('Content-Security-Policy', DASHBOARD_CSP),
  });
}
