/**
 * GET, PUT and DELETE /api/workflow/{id}/schedule and GET /api/schedules (issue 18), against
 * the real service on both databases: the answers, the next due times in the schedule's
 * zone, pausing, removal, every refusal with its exact text, ownership, and the workflow
 * object left with exactly its nine fields.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pgSkipReason } from '../../helpers/postgres.js';
import { startService, type TestService } from '../../helpers/service.js';
import {
  type Call,
  ISO_MS,
  WORKFLOW_FIELDS,
  type WorkflowBody,
  workflowClient,
} from '../../helpers/workflow-http.js';

interface ScheduleBody {
  workflowId: string;
  cron: string;
  timezone: string;
  enabled: boolean;
  nextRuns: string[];
  lastRun: unknown;
  consecutiveFailures: number;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

const SCHEDULE_FIELDS = [
  'consecutiveFailures',
  'createdAt',
  'cron',
  'disabledReason',
  'enabled',
  'lastRun',
  'nextRuns',
  'timezone',
  'updatedAt',
  'workflowId',
];

/** The wall-clock hour and minute of an instant in a zone, e.g. "09:00". */
function localTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/** What a refused field's message says it takes. */
const TAKES = (range: string) =>
  `is not valid (use ${range}, *, a list 1,15, a range 1-5 or a step */10)`;

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`workflow schedules over HTTP (${engine})`, {
    skip: engine === 'postgres' ? pgSkipReason : false,
  }, () => {
    let service: TestService;
    let call: Call;

    before(async () => {
      service = await startService({
        postgres: engine === 'postgres',
        env: { SCHEDULE_MIN_INTERVAL_MS: '300000' },
      });
      call = workflowClient(service.baseUrl, service.apiKey);
    });
    after(async () => {
      await service.close();
    });

    async function createWorkflow(): Promise<WorkflowBody> {
      const answer = await call<WorkflowBody>('POST', '/api/workflow/create', {
        body: { name: 'prices', config: { url: 'http://127.0.0.1:9/' } },
      });
      assert.equal(answer.status, 200);
      return answer.body;
    }

    const path = (id: string) => `/api/workflow/${id}/schedule`;

    test('sets a schedule in a zone and shows its next due times', async () => {
      const workflow = await createWorkflow();
      const missing = await call('GET', path(workflow.id));
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { error: 'Schedule not found!' });

      const put = await call<ScheduleBody>('PUT', path(workflow.id), {
        body: { cron: '0  9 * * *', timezone: 'europe/berlin' },
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.deepEqual(Object.keys(put.body).sort(), SCHEDULE_FIELDS);
      assert.equal(put.body.cron, '0 9 * * *');
      assert.equal(put.body.timezone, 'Europe/Berlin');
      assert.equal(put.body.enabled, true);
      assert.equal(put.body.lastRun, null);
      assert.equal(put.body.disabledReason, null);
      assert.equal(put.body.nextRuns.length, 5);
      for (const at of put.body.nextRuns) {
        assert.match(at, ISO_MS);
        assert.equal(localTime(at, 'Europe/Berlin'), '09:00');
        assert.ok(Date.parse(at) > Date.now());
      }
      const got = await call<ScheduleBody>('GET', path(workflow.id));
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, put.body);

      // The workflow keeps exactly its nine fields.
      const list = await call<WorkflowBody[]>('GET', '/api/workflow');
      const listed = list.body.find((w) => w.id === workflow.id);
      assert.deepEqual(Object.keys(listed ?? {}).sort(), WORKFLOW_FIELDS);
    });

    test('takes the shorthands and keeps fields a later PUT leaves out', async () => {
      const workflow = await createWorkflow();
      const hourly = await call<ScheduleBody>('PUT', path(workflow.id), {
        body: { cron: '@hourly' },
      });
      assert.equal(hourly.status, 200, JSON.stringify(hourly.body));
      assert.equal(hourly.body.timezone, 'UTC');
      const [first, second] = hourly.body.nextRuns.map(Date.parse) as [number, number];
      assert.equal(second - first, 3600_000);
      assert.equal(new Date(first).getUTCMinutes(), 0);

      const paused = await call<ScheduleBody>('PUT', path(workflow.id), {
        body: { enabled: false },
      });
      assert.equal(paused.status, 200);
      assert.equal(paused.body.cron, '@hourly');
      assert.equal(paused.body.enabled, false);
      assert.deepEqual(paused.body.nextRuns, []);

      const resumed = await call<ScheduleBody>('PUT', path(workflow.id), {
        body: { enabled: true, timezone: 'Asia/Kolkata' },
      });
      assert.equal(resumed.body.enabled, true);
      assert.equal(resumed.body.timezone, 'Asia/Kolkata');
      // Kolkata is UTC+05:30: its whole hours fall on half past in UTC.
      assert.equal(new Date(resumed.body.nextRuns[0] as string).getUTCMinutes(), 30);
    });

    test('refuses what is not a valid schedule, each with its text', async () => {
      const workflow = await createWorkflow();
      const cases: [unknown, string][] = [
        [{}, 'Cron is required!'],
        [{ timezone: 'UTC' }, 'Cron is required!'],
        [{ cron: 5 }, 'Invalid cron expression: it must be a string'],
        [
          { cron: '0 0 * * * *' },
          'Invalid cron expression: expected 5 fields (minute hour day-of-month month day-of-week) or a shorthand such as @hourly, got 6',
        ],
        [
          { cron: '@sometimes' },
          'Invalid cron expression: unknown shorthand @sometimes (use @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly)',
        ],
        [{ cron: '61 * * * *' }, `Invalid cron expression: the minute field "61" ${TAKES('0-59')}`],
        [
          { cron: '0 0 32 * *' },
          `Invalid cron expression: the day-of-month field "32" ${TAKES('1-31')}`,
        ],
        [
          { cron: '0 9 * * MON-XYZ' },
          `Invalid cron expression: the day-of-week field "MON-XYZ" ${TAKES('0-7 or SUN-SAT')}`,
        ],
        [
          { cron: '0 9 * *' },
          'Invalid cron expression: expected 5 fields (minute hour day-of-month month day-of-week) or a shorthand such as @hourly, got 4',
        ],
        [{ cron: '0 0 30 2 *' }, 'Invalid cron expression: it never runs'],
        [{ cron: '@daily', timezone: 'Mars/Olympus' }, 'Unknown time zone: Mars/Olympus'],
        [{ cron: '@daily', timezone: 7 }, 'Unknown time zone: 7'],
        [{ cron: '*/2 * * * *' }, 'Schedule runs too often: at most once every 300 seconds'],
        [{ cron: '@daily', enabled: 'yes' }, 'enabled must be true or false'],
        [{ cron: '@daily', every: 'day' }, 'Only cron, timezone and enabled can be set'],
        [[1], 'Request body must be a JSON object'],
      ];
      for (const [body, error] of cases) {
        const answer = await call('PUT', path(workflow.id), { body });
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.deepEqual(answer.body, { error }, JSON.stringify(body));
      }
      assert.equal((await call('GET', path(workflow.id))).status, 404, 'nothing was saved');
    });

    test('the preview refuses exactly what a save refuses, in the same words, and saves nothing', async () => {
      const workflow = await createWorkflow();
      const preview = (query: Record<string, string>) =>
        call<{ cron: string; timezone: string; nextRuns: string[] } | { error: string }>(
          'GET',
          `/api/schedules/preview?${new URLSearchParams(query)}`,
        );
      const refused: Record<string, string>[] = [
        { cron: '0 0 * * * *' },
        { cron: '0 9 * *' },
        { cron: '61 * * * *' },
        { cron: '0 0 32 * *' },
        { cron: '@sometimes' },
        { cron: '0 0 30 2 *' },
        { cron: '*/2 * * * *' },
        { cron: '@daily', timezone: 'Mars/Olympus' },
        { cron: '' },
      ];
      for (const query of refused) {
        const saved = await call('PUT', path(workflow.id), { body: query });
        const previewed = await preview(query);
        assert.equal(saved.status, 400, JSON.stringify(query));
        assert.deepEqual(
          [previewed.status, previewed.body],
          [saved.status, saved.body],
          JSON.stringify(query),
        );
      }
      const ok = await preview({ cron: ' 0  9 * * 1-5 ', timezone: 'europe/berlin' });
      assert.equal(ok.status, 200);
      const body = ok.body as { cron: string; timezone: string; nextRuns: string[] };
      assert.equal(body.cron, '0 9 * * 1-5');
      assert.equal(body.timezone, 'Europe/Berlin');
      assert.equal(body.nextRuns.length, 5);
      assert.ok(body.nextRuns.every((at) => localTime(at, 'Europe/Berlin') === '09:00'));
      assert.equal((await call('GET', path(workflow.id))).status, 404, 'nothing was saved');
      assert.equal((await preview({ cron: '@daily' })).status, 200, 'UTC when no zone is given');
    });

    test('an archived workflow cannot be scheduled; its schedule shows no next runs', async () => {
      const workflow = await createWorkflow();
      await call('PUT', path(workflow.id), { body: { cron: '@daily' } });
      await call('DELETE', `/api/workflow/archive/${workflow.id}`);
      const shown = await call<ScheduleBody>('GET', path(workflow.id));
      assert.equal(shown.status, 200);
      assert.deepEqual(shown.body.nextRuns, []);
      const refused = await call('PUT', path(workflow.id), { body: { cron: '@hourly' } });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body, { error: 'Workflow is archived!' });
      await call('POST', `/api/workflow/unarchive/${workflow.id}`);
      const back = await call<ScheduleBody>('GET', path(workflow.id));
      assert.equal(back.body.nextRuns.length, 5);
    });

    test('removes a schedule; lists the account’s schedules only', async () => {
      const workflow = await createWorkflow();
      await call('PUT', path(workflow.id), { body: { cron: '30 6 * * 1-5' } });
      const listed = await call<ScheduleBody[]>('GET', '/api/schedules');
      assert.equal(listed.status, 200);
      assert.ok(listed.body.some((s) => s.workflowId === workflow.id && s.cron === '30 6 * * 1-5'));

      const other = await service.addAccount(10);
      const stranger = workflowClient(service.baseUrl, other.apiKey);
      const hidden = await stranger('GET', path(workflow.id));
      assert.equal(hidden.status, 404);
      assert.deepEqual(hidden.body, { error: 'Workflow not found!' });
      assert.equal((await stranger('DELETE', path(workflow.id))).status, 404);
      assert.deepEqual((await stranger<ScheduleBody[]>('GET', '/api/schedules')).body, []);

      const removed = await call<ScheduleBody>('DELETE', path(workflow.id));
      assert.equal(removed.status, 200);
      assert.equal(removed.body.cron, '30 6 * * 1-5');
      assert.deepEqual(removed.body.nextRuns, []);
      assert.equal((await call('GET', path(workflow.id))).status, 404);
      const again = await call('DELETE', path(workflow.id));
      assert.equal(again.status, 404);
      assert.deepEqual(again.body, { error: 'Schedule not found!' });
    });

    test('needs the key, and documents the routes in OpenAPI', async () => {
      const workflow = await createWorkflow();
      assert.equal((await call('GET', path(workflow.id), { key: null })).status, 403);
      const doc = await call<{ paths: Record<string, Record<string, unknown>> }>(
        'GET',
        '/api/openapi.json',
      );
      const route = doc.body.paths['/api/workflow/{id}/schedule'];
      assert.ok(route, 'the schedule route is documented');
      assert.deepEqual(Object.keys(route).sort(), ['delete', 'get', 'put']);
      assert.ok(doc.body.paths['/api/schedules']?.get);
    });
  });
}
