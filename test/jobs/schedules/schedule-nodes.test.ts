/**
 * Scheduled runs across `pagegrab serve` processes sharing one PostgreSQL, with second-level
 * timing (SCHEDULE_ALLOW_SECONDS): two nodes run each due time exactly once over 60 due
 * times; a run whose node is killed with SIGKILL is taken over through its lease and still
 * recorded once; and after every node stopped, missed due times become one catch-up run.
 */
import assert from 'node:assert/strict';
import { after, type TestContext, test } from 'node:test';
import { openStore, type Store } from '../../../src/store/db.js';
import { startFixtureSite } from '../../helpers/fixture-site.js';
import { createTestDatabase, pgSkipReason } from '../../helpers/postgres.js';
import { until } from '../../helpers/until.js';
import { workflowClient } from '../../helpers/workflow-http.js';
import { createAccountWithCli, type ServeProcess, spawnServe } from '../webhooks/serve-process.js';

const servers: ServeProcess[] = [];
after(async () => {
  for (const server of servers) if (server.child.exitCode === null) await server.kill();
});

interface ScheduledRecord {
  id: string;
  workflow_id: string;
  status: string;
  scheduled_for: number;
  catch_up: number;
}

/** `nodeCount`: how many `pagegrab serve` to start now, while the account is being created. */
async function setUp(t: TestContext, nodeCount: number, extraEnv: Record<string, string> = {}) {
  const [database, site] = await Promise.all([createTestDatabase(), startFixtureSite()]);
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: '/nonexistent-unused',
    ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
    SCHEDULE_ALLOW_SECONDS: 'true',
    SCHEDULE_MIN_INTERVAL_MS: '1000',
    SCHEDULE_POLL_MS: '200',
    // Generous: a loaded machine may see a due time seconds late; it is still on time.
    SCHEDULE_MISFIRE_MS: '10000',
    JOB_POLL_MS: '100',
    ...extraEnv,
  };
  const start = async (count: number) => {
    const nodes = await Promise.all(Array.from({ length: count }, () => spawnServe(env)));
    servers.push(...nodes);
    return nodes;
  };
  // The nodes start while the command line creates the account and the test's own store
  // opens: one after the other, the three processes' starts took some 5 s of each test on a
  // loaded machine. They migrate the empty database together, as nodes started at once do.
  const [nodes, account, store] = await Promise.all([
    start(nodeCount),
    createAccountWithCli(env, 100_000),
    openStore({ databaseUrl: database.url, dataDir: '/unused' }) as Promise<Store>,
  ]);
  t.after(async () => {
    await store.close();
    await site.close();
    await database.drop();
  });
  const records = async (): Promise<ScheduledRecord[]> =>
    (await store.db
      .selectFrom('requests')
      .select(['id', 'workflow_id', 'status', 'scheduled_for', 'catch_up'])
      .where('scheduled_for', 'is not', null)
      .orderBy('scheduled_for')
      .execute()) as ScheduledRecord[];
  const queuedRuns = async () =>
    Number(
      (
        await store.db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('state', '=', 'queued')
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { database, site, env, account, store, nodes, start, records, queuedRuns };
}

async function scheduleWorkflow(baseUrl: string, apiKey: string, url: string, cron: string) {
  const call = workflowClient(baseUrl, apiKey);
  const created = await call<{ id: string }>('POST', '/api/workflow/create', {
    body: { name: 'monitor', config: { url } },
  });
  assert.equal(created.status, 200);
  const put = await call('PUT', `/api/workflow/${created.body.id}/schedule`, { body: { cron } });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  return {
    id: created.body.id,
    pause: (via = baseUrl) =>
      workflowClient(via, apiKey)('PUT', `/api/workflow/${created.body.id}/schedule`, {
        body: { enabled: false },
      }),
  };
}

/** Due times of one workflow: strictly increasing by `stepMs`, none missing, none twice. */
function assertConsecutive(dueTimes: number[], stepMs: number, what: string) {
  for (let i = 1; i < dueTimes.length; i++) {
    assert.equal(
      (dueTimes[i] as number) - (dueTimes[i - 1] as number),
      stepMs,
      `${what}: due times ${new Date(dueTimes[i - 1] as number).toISOString()} → ${new Date(dueTimes[i] as number).toISOString()}`,
    );
  }
}

test('two nodes on one PostgreSQL run each of 60 due times exactly once', {
  skip: pgSkipReason,
}, async (t) => {
  const { site, account, nodes, records, queuedRuns, store } = await setUp(t, 2);
  const workflows = [];
  // Six per-second workflows: the 60 due times come in ~10 s of real time (three took ~20 s).
  for (let i = 0; i < 6; i++) {
    site.html(`/w${i}`, `<p>${i}</p>`);
    // Set on either node: both schedulers see every schedule through the database.
    const node = nodes[i % 2] as ServeProcess;
    workflows.push(
      await scheduleWorkflow(node.url, account.apiKey, site.url(`/w${i}`), '* * * * * *'),
    );
  }
  await until(async () => (await records()).length >= 60, 120_000);
  for (const workflow of workflows) await workflow.pause();
  await until(async () => (await queuedRuns()) === 0, 60_000);
  await Promise.all(nodes.map((node) => node.stop()));

  const all = await records();
  assert.ok(all.length >= 60, `${all.length} runs`);
  for (const [i, workflow] of workflows.entries()) {
    const mine = all.filter((r) => r.workflow_id === workflow.id);
    const dueTimes = mine.map((r) => Number(r.scheduled_for));
    assert.equal(new Set(dueTimes).size, dueTimes.length, 'no due time ran twice');
    assertConsecutive(dueTimes, 1000, `workflow ${i}`);
    assert.ok(mine.every((r) => r.status === 'success' && Number(r.catch_up) === 0));
    assert.equal(site.hits(`/w${i}`), mine.length, 'each run fetched its page once');
  }
  const settles = await store.db
    .selectFrom('ledger')
    .select('request_id')
    .where('kind', '=', 'settle')
    .execute();
  assert.deepEqual(new Set(settles.map((s) => s.request_id)), new Set(all.map((r) => r.id)));
  assert.equal(settles.length, all.length, 'each run charged once');
});

test('a run whose node is killed (SIGKILL) is taken over through its lease and recorded once', {
  skip: pgSkipReason,
}, async (t) => {
  const { site, account, nodes, records, queuedRuns, store } = await setUp(t, 2, {
    JOB_LEASE_MS: '1500',
  });
  let slow = 0;
  site.route('/slow', (_req, res) => {
    slow++;
    setTimeout(() => res.end('<p>slow</p>'), 2500).unref();
  });
  const workflow = await scheduleWorkflow(
    (nodes[0] as ServeProcess).url,
    account.apiKey,
    site.url('/slow'),
    '*/3 * * * * *',
  );
  // Wait for a run in a holder's hands with its fetch under way, and kill that holder.
  let held: { id: string; locked_by: string | null; payload: string } | undefined;
  await until(async () => {
    const finished = (await records()).length;
    const holding = await store.db
      .selectFrom('jobs')
      .select(['id', 'locked_by', 'payload'])
      .where('kind', '=', 'schedule-run')
      .where('state', '=', 'queued')
      .where('locked_by', 'is not', null)
      .execute();
    held = holding[0];
    return holding.length === 1 && slow === finished + 1;
  }, 60_000);
  const pid = Number(/-(\d+)-[0-9a-f]+\//.exec(held?.locked_by ?? '')?.[1]);
  const doomed = nodes.find((node) => node.child.pid === pid);
  assert.ok(doomed, `the holder ${held?.locked_by} is one of the nodes`);
  const survivor = nodes.find((node) => node !== doomed) as ServeProcess;
  await doomed.kill();
  const dueTime = (JSON.parse(held?.payload ?? '{}') as { scheduledFor: number }).scheduledFor;

  await until(
    async () => (await records()).some((r) => Number(r.scheduled_for) === dueTime),
    60_000,
  );
  // Two more due times on the survivor alone (the one after the kill's ran beside the taken-over
  // run, the next after it), then stop.
  await until(
    async () => (await records()).some((r) => Number(r.scheduled_for) > dueTime + 3000),
    60_000,
  );
  await workflow.pause(survivor.url);
  await until(async () => (await queuedRuns()) === 0, 60_000);
  await survivor.stop();

  const all = await records();
  const taken = all.filter((r) => Number(r.scheduled_for) === dueTime);
  assert.equal(taken.length, 1, 'the killed run is recorded exactly once');
  assert.equal(taken[0]?.status, 'success');
  const dueTimes = all.map((r) => Number(r.scheduled_for));
  assert.equal(new Set(dueTimes).size, dueTimes.length, 'no due time ran twice');
  assertConsecutive(dueTimes, 3000, 'none lost across the kill');
  // The killed holder had started its fetch; its taker fetched again: one more hit than runs.
  assert.equal(slow, all.length + 1);
  const settles = await store.db
    .selectFrom('ledger')
    .select('request_id')
    .where('kind', '=', 'settle')
    .execute();
  assert.equal(settles.length, all.length, 'each run charged once');
});

test('after every node stopped, missed due times make one catch-up run, marked as such', {
  skip: pgSkipReason,
}, async (t) => {
  // The misfire window is wider than a busy machine's lag (a live node 2 s late made catch-ups
  // of its own at load 25), so a due time is missed only by the stop. The stop is 4 s longer
  // than the window, plus the restart's boot: at least three due times fall before the window
  // when the new node first looks, and must make the one catch-up run.
  const { site, account, nodes, start, records, env } = await setUp(t, 1, {
    SCHEDULE_MISFIRE_MS: '6000',
  });
  site.html('/c', '<p>c</p>');
  const [first] = nodes as [ServeProcess];
  const workflow = await scheduleWorkflow(first.url, account.apiKey, site.url('/c'), '* * * * * *');
  await until(async () => (await records()).length >= 2, 60_000);
  await first.stop();
  const stoppedAt = Date.now();
  await until(() => Date.now() > stoppedAt + 10_000, 20_000);
  const [second] = (await start(1)) as [ServeProcess];
  const restartedAt = Date.now();
  await until(async () => (await records()).some((r) => Number(r.catch_up) === 1), 60_000);
  await until(
    async () => (await records()).some((r) => Number(r.scheduled_for) > restartedAt + 1000),
    60_000,
  );
  await workflow.pause(second.url);
  await second.stop();
  assert.ok(env);

  const all = await records();
  const catchUps = all.filter((r) => Number(r.catch_up) === 1);
  assert.equal(catchUps.length, 1, 'one catch-up run');
  const catchUp = Number(catchUps[0]?.scheduled_for);
  assert.ok(catchUp > stoppedAt && catchUp < restartedAt, 'for a due time missed while stopped');
  const replayed = all.filter((r) => {
    const due = Number(r.scheduled_for);
    return Number(r.catch_up) === 0 && due > stoppedAt + 1000 && due < catchUp;
  });
  assert.deepEqual(replayed, [], 'the missed due times are not replayed one by one');
});
