import type { Kysely } from 'kysely';

/**
 * Scheduled workflows (issue 18). `workflow_schedules`: one row per scheduled workflow, its
 * cron and zone, and `next_run_at`, the next due time the scheduler has not enqueued yet
 * (null while paused). The scheduler reads only rows whose `next_run_at` has passed, through
 * its index, so a node's cost follows what is due, not how many schedules exist.
 *
 * `requests.scheduled_for` (and `catch_up`) mark a scheduled run's record; the unique index
 * on (workflow_id, scheduled_for) lets the database itself refuse a second record for one
 * due time, whatever node or holder writes it (NULLs, every other request, never collide).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workflow_schedules')
    .addColumn('workflow_id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('cron', 'text', (c) => c.notNull())
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('next_run_at', 'bigint')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disabled_reason', 'text')
    .addColumn('last_scheduled_for', 'bigint')
    .addColumn('last_request_id', 'text')
    .addColumn('last_status', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('workflow_schedules_next_run')
    .on('workflow_schedules')
    .column('next_run_at')
    .execute();
  await db.schema
    .createIndex('workflow_schedules_account')
    .on('workflow_schedules')
    .column('account_id')
    .execute();
  await db.schema.alterTable('requests').addColumn('scheduled_for', 'bigint').execute();
  await db.schema.alterTable('requests').addColumn('catch_up', 'integer').execute();
  await db.schema
    .createIndex('requests_scheduled_run')
    .on('requests')
    .columns(['workflow_id', 'scheduled_for'])
    .unique()
    .execute();
}
