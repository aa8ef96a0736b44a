/**
 * The API shapes of a workflow (contract 24) and of a request record (contract 32), their
 * schemas for the OpenAPI document, and the row → JSON mappings. Timestamps leave the
 * database as epoch ms and reach the client as ISO 8601 UTC with milliseconds.
 */
import { type Static, Type } from '@sinclair/typebox';
import { type WorkflowConfig, workflowConfigSchema } from '../scrape/params/index.js';
import type { RecordRow, WorkflowRow } from './workflow-store.js';

const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC, milliseconds' });

export const WorkflowSchema = Type.Object(
  {
    id: Type.String({ description: 'Opaque id; the `workflow_id` of a run' }),
    userId: Type.String({ description: 'The owning account' }),
    config: Type.Unsafe<WorkflowConfig>(workflowConfigSchema),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    lastRun: Type.Union([Timestamp, Type.Null()], { description: 'null until the first run' }),
    creditsSpent: Type.Integer({ description: 'Sum of the credits of its request records' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archived: Type.Boolean(),
  },
  { $id: 'Workflow', additionalProperties: false },
);
export type WorkflowJson = Static<typeof WorkflowSchema>;

const WebhookStateSchema = Type.Object({
  url: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
});

export const RequestRecordSchema = Type.Object(
  {
    id: Type.String({ description: 'The request id (X-Request-Id of a webhook delivery)' }),
    workflowId: Type.String(),
    url: Type.String({ description: 'The target as requested' }),
    status: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
    statusCode: Type.Integer({
      description: 'What the API answered (or would have, with a webhook)',
    }),
    targetStatus: Type.Union([Type.Integer(), Type.Null()], {
      description: "The target's HTTP status when it answered",
    }),
    outputType: Type.Union([
      Type.Literal('html'),
      Type.Literal('markdown'),
      Type.Literal('screenshot'),
      Type.Literal('extract'),
      Type.Literal('structured_data'),
      Type.Literal('json'),
      Type.Literal('summary'),
      Type.Literal('change_tracking'),
    ]),
    render: Type.Boolean(),
    proxyType: Type.String(),
    proxyCountry: Type.Union([Type.String(), Type.Null()]),
    creditsSpent: Type.Integer(),
    durationMs: Type.Union([Type.Integer(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()], { description: 'null on success' }),
    webhook: Type.Union([WebhookStateSchema, Type.Null()]),
    createdAt: Timestamp,
    schedule: Type.Optional(
      Type.Object(
        {
          scheduledFor: Timestamp,
          catchUp: Type.Boolean({
            description: 'The one run made up for due times missed while no node ran',
          }),
        },
        { description: 'Only on a scheduled run: the due time it ran for' },
      ),
    ),
  },
  { $id: 'WorkflowRequestRecord', additionalProperties: false },
);
export type RequestRecordJson = Static<typeof RequestRecordSchema>;

const iso = (ms: number) => new Date(ms).toISOString();

export function toWorkflowJson(row: WorkflowRow): WorkflowJson {
  return {
    id: row.id,
    userId: row.account_id,
    config: JSON.parse(row.config) as WorkflowConfig,
    name: row.name,
    lastRun: row.last_run_at === null ? null : iso(row.last_run_at),
    creditsSpent: Number(row.credits_spent),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    archived: Boolean(row.archived),
  };
}

export function toRecordJson(row: RecordRow): RequestRecordJson {
  const record: RequestRecordJson = {
    id: row.id,
    workflowId: row.workflow_id ?? '',
    url: row.url,
    status: row.status === 'success' ? 'success' : 'failed',
    statusCode: row.status_code ?? 0,
    targetStatus: row.target_status,
    outputType: row.output_type as RequestRecordJson['outputType'],
    render: Boolean(row.render),
    proxyType: row.proxy_type,
    proxyCountry: row.proxy_country,
    creditsSpent: Number(row.credits),
    durationMs: row.duration_ms,
    error: row.error,
    webhook:
      row.webhook === null ? null : (JSON.parse(row.webhook) as RequestRecordJson['webhook']),
    createdAt: iso(row.created_at),
  };
  // A scheduled run says so; every other record keeps the contract's fields exactly.
  if (row.scheduled_for !== null && row.scheduled_for !== undefined) {
    record.schedule = {
      scheduledFor: iso(Number(row.scheduled_for)),
      catchUp: Number(row.catch_up) === 1,
    };
  }
  return record;
}

/**
 * The same JSON as `JSON.stringify(toWorkflowJson(row))`, built as text with the stored
 * config spliced in as it is: the list answers up to every workflow of an account
 * (10,000 rows are ~5 MB), and parsing then re-serialising each config was most of its
 * cost. Safe because the config column only ever holds `JSON.stringify` of a normalised
 * config (workflow-service.ts is its only writer).
 */
export function workflowJsonText(row: WorkflowRow): string {
  const lastRun = row.last_run_at === null ? 'null' : `"${iso(row.last_run_at)}"`;
  return (
    `{"id":${JSON.stringify(row.id)},"userId":${JSON.stringify(row.account_id)},` +
    `"config":${row.config},"name":${JSON.stringify(row.name)},"lastRun":${lastRun},` +
    `"creditsSpent":${Number(row.credits_spent)},"createdAt":"${iso(row.created_at)}",` +
    `"updatedAt":"${iso(row.updated_at)}","archived":${row.archived ? 'true' : 'false'}}`
  );
}
