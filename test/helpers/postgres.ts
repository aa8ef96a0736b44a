/**
 * A fresh PostgreSQL database for one test file, on the server that scripts/run-tests.mjs
 * started for the run (PAGEGRAB_TEST_PG_ADMIN_URL). Without it, suites skip their PostgreSQL
 * half with a visible reason (CI always has it: .ci/run installs PostgreSQL).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const testPgAdminUrl = process.env.PAGEGRAB_TEST_PG_ADMIN_URL ?? null;

export const pgSkipReason = testPgAdminUrl
  ? false
  : 'PostgreSQL not available (run through `npm test`, which starts one)';

/** Creates an empty database and returns its URL and a dropper. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!testPgAdminUrl) throw new Error('PAGEGRAB_TEST_PG_ADMIN_URL is not set');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testPgAdminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = testPgAdminUrl.replace(/\/[^/]*$/, `/${name}`);
  return {
    url,
    async drop() {
      const client = new pg.Client({ connectionString: testPgAdminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
