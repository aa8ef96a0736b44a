/**
 * GET /readyz (contract 37): 200 while the database answers and the node is not draining,
 * else 503, so a load balancer stops sending traffic. The browser pool's state is reported
 * but does not decide: a browser that failed is relaunched on the next render.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Type } from '@sinclair/typebox';
import { checkDatabase } from '../../store/db.js';
import { defineRoute } from '../route.js';

/**
 * A database that has not answered `select 1` by then counts as down: a silent server once
 * held /readyz past a load balancer's own timeout, which then saw no answer rather than a 503.
 */
const DATABASE_DEADLINE_MS = 2_000;

/** 'ok', or why the database is not usable, within DATABASE_DEADLINE_MS. */
async function databaseState(check: Promise<void>): Promise<string> {
  const deadline = new AbortController();
  try {
    return await Promise.race([
      check.then(() => 'ok'),
      sleep(DATABASE_DEADLINE_MS, `error: no answer within ${DATABASE_DEADLINE_MS} ms`, {
        signal: deadline.signal,
      }),
    ]);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  } finally {
    deadline.abort();
  }
}

const ReadySchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not ready')]),
  database: Type.String(),
  browser: Type.Unknown(),
  draining: Type.Boolean(),
});

export default defineRoute((app, { store, readiness }) => {
  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'readyz',
        summary: 'The database and the browser pool are usable',
        tags: ['operations'],
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (_request, reply) => {
      const database = await databaseState(checkDatabase(store.db));
      const browser = readiness.browser();
      const draining = readiness.draining();
      const ready = database === 'ok' && !draining;
      return reply
        .code(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'not ready', database, browser, draining });
    },
  );
});
