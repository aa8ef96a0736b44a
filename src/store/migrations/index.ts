import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Dialect } from '../dialect.js';
import * as initial from './001-initial.js';
import * as webhookResults from './003-webhook-results.js';
import * as ledgerEnds from './004-ledger-ends.js';
import * as workflowChangeSeq from './005-workflow-change-seq.js';
import * as pageFilesAndCache from './006-page-files-and-cache.js';
import * as batches from './007-batches.js';
import * as schedules from './008-schedules.js';
import * as crawls from './009-crawls.js';
import * as requestLog from './011-request-log.js';
import * as requestLogScale from './012-request-log-scale.js';
import * as reservationHolders from './013-reservation-holders.js';
import * as keptResultsEncoding from './014-kept-results-encoding.js';
import * as pgScrapeFunctions from './015-pg-scrape-functions.js';
import * as uniqueAccountNames from './016-unique-account-names.js';
import * as keyNames from './017-key-names.js';
import * as extracts from './018-extracts.js';
import * as extractPages from './019-extract-pages.js';
import * as keptResultFiles from './020-kept-result-files.js';

/** Migrations live in code (not files found at run time) so the built package carries them. */
function provider(dialect: Dialect): MigrationProvider {
  const all: Record<string, Migration> = {
    '001-initial': { up: (db) => initial.up(db, dialect) },
    '003-webhook-results': { up: (db) => webhookResults.up(db, dialect) },
    '004-ledger-ends': { up: (db) => ledgerEnds.up(db) },
    '005-workflow-change-seq': { up: (db) => workflowChangeSeq.up(db) },
    '006-page-files-and-cache': { up: (db) => pageFilesAndCache.up(db, dialect) },
    '007-batches': { up: (db) => batches.up(db) },
    '008-schedules': { up: (db) => schedules.up(db) },
    '009-crawls': { up: (db) => crawls.up(db) },
    '011-request-log': { up: (db) => requestLog.up(db, dialect) },
    '012-request-log-scale': { up: (db) => requestLogScale.up(db, dialect) },
    '013-reservation-holders': { up: (db) => reservationHolders.up(db) },
    '014-kept-results-encoding': { up: (db) => keptResultsEncoding.up(db) },
    '015-pg-scrape-functions': { up: (db) => pgScrapeFunctions.up(db, dialect) },
    '016-unique-account-names': { up: (db) => uniqueAccountNames.up(db) },
    '017-key-names': { up: (db) => keyNames.up(db) },
    '018-extracts': { up: (db) => extracts.up(db) },
    '019-extract-pages': { up: (db) => extractPages.up(db) },
    '020-kept-result-files': { up: (db) => keptResultFiles.up(db) },
  };
  return { getMigrations: async () => all };
}

/**
 * Runs at every start. On PostgreSQL Kysely's migrator takes a lock, so nodes starting
 * together apply each migration once.
 */
export async function migrate(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db, provider: provider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`Database migration failed: ${reason}`);
  }
}
