/**
 * The plain scrape on PostgreSQL, through the real service: every round trip its answer waits
 * for is one statement (issue 26), and the ledger, the record and its day stay exact.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { endWithRecordPg } from '../../src/billing/end-with-record-pg.js';
import { type FixtureSite, startFixtureSite } from '../helpers/fixture-site.js';
import { freePort } from '../helpers/free-port.js';
import { pgSkipReason } from '../helpers/postgres.js';
import { sampleRunRecord } from '../helpers/run-record.js';
import { startService, type TestService } from '../helpers/service.js';

// The service's own pollers (the job queue, the scheduler) run beside any scrape.
const BACKGROUND = /"jobs"|"workflow_schedules"/;

/**
 * What the service's pg clients send while `work` runs, the pollers' work left out: each
 * client's transactions (BEGIN … COMMIT) are taken whole, so a poller's is left out whole.
 */
async function statementsOf<T>(work: () => Promise<T>): Promise<[T, string[]]> {
  const units = new Map<pg.Client, string[][]>();
  const order: string[][] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    const text = (typeof first === 'string' ? first : first.text).replace(/\s+/g, ' ').trim();
    const mine = units.get(this) ?? [];
    units.set(this, mine);
    const open = mine.at(-1);
    if (open && open[0] === 'begin' && !/^(commit|rollback)$/.test(open.at(-1) ?? '')) {
      open.push(text);
    } else {
      mine.push([text]);
      order.push(mine.at(-1) as string[]);
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    const result = await work();
    // A transaction still open when the answer came was not one the answer waited for.
    const finished = (unit: string[]) =>
      unit[0] !== 'begin' || (unit.length > 1 && /^(commit|rollback)$/.test(unit.at(-1) ?? ''));
    const own = order.filter(
      (unit) => finished(unit) && !unit.some((text) => BACKGROUND.test(text)),
    );
    return [result, own.flat()];
  } finally {
    pg.Client.prototype.query = query;
  }
}

describe('the plain scrape on PostgreSQL', { skip: pgSkipReason }, () => {
  let site: FixtureSite;
  let service: TestService;
  const scrape = (url: string) =>
    fetch(
      `${service.baseUrl}/api/scraper?api_key=${service.apiKey}&url=${encodeURIComponent(url)}`,
    );
  const db = () => service.running.store.db;
  const ledgerOf = async (requestId: string) =>
    (
      await db()
        .selectFrom('ledger')
        .select(['kind', 'amount'])
        .where('request_id', '=', requestId)
        .orderBy('id')
        .execute()
    ).map((row) => [row.kind, Number(row.amount)]);
  const daysOf = async (status: string) =>
    (
      await db()
        .withTables<{ request_days: { account_id: string; status: string; requests: number } }>()
        .selectFrom('request_days')
        .select('requests')
        .where('account_id', '=', service.accountId)
        .where('status', '=', status)
        .execute()
    ).reduce((sum, row) => sum + Number(row.requests), 0);

  before(async () => {
    site = await startFixtureSite();
    site.html('/', '<!doctype html><title>Plain</title><p>A plain page</p>');
    // No kept results: their write follows the answer and is not part of this count.
    service = await startService({
      postgres: true,
      credits: 100,
      env: { RESULT_RETENTION_DAYS: '0' },
    });
    // The key's first use is written once (then at most once a minute, accounts/key-use.ts):
    // the scrapes counted here are the everyday ones.
    await (await scrape(site.url('/'))).arrayBuffer();
  });

  after(async () => {
    await service?.close();
    await site?.close();
  });

  test('its answer waits for five statements and no transaction: key, reserve, slot, the end with its record, the release', async () => {
    const [res, sent] = await statementsOf(async () => {
      const answer = await scrape(site.url('/'));
      await answer.arrayBuffer();
      return answer;
    });
    assert.equal(res.status, 200);
    const own = sent.map((text) => /^\w+ "?\w+"?/.exec(text)?.[0]);
    assert.deepEqual(
      own.slice(0, 3),
      ['select "accounts"', 'select pagegrab_reserve', 'select pagegrab_take_slot'],
      sent.join('\n'),
    );
    // The settle and the slot's release are sent together: either may go first.
    assert.deepEqual(own.slice(3).sort(), ['delete from', 'with ended'], sent.join('\n'));
  });

  test('a success is charged once, with its record and its day', async () => {
    const days = await daysOf('success');
    const res = await scrape(site.url('/'));
    await res.arrayBuffer();
    assert.equal(res.status, 200);
    const requestId = res.headers.get('x-request-id') as string;
    const price = Number(res.headers.get('x-credits-used'));
    assert.ok(price > 0);
    assert.deepEqual(await ledgerOf(requestId), [
      ['reserve', -price],
      ['settle', price],
    ]);
    const record = await db()
      .selectFrom('requests')
      .select(['status', 'credits'])
      .where('id', '=', requestId)
      .executeTakeFirstOrThrow();
    assert.deepEqual([record.status, Number(record.credits)], ['success', price]);
    assert.equal(await daysOf('success'), days + 1);
    // The same end again (a retried settle) fails whole: no second charge, record or day.
    const again = endWithRecordPg(db(), {
      accountId: service.accountId,
      requestId,
      kind: 'settle',
      amount: price,
      record: sampleRunRecord({
        id: requestId,
        accountId: service.accountId,
        workflowId: null,
        url: site.url('/'),
        credits: price,
      }),
    });
    await assert.rejects(again);
    assert.deepEqual(await ledgerOf(requestId), [
      ['reserve', -price],
      ['settle', price],
    ]);
    assert.equal(await daysOf('success'), days + 1);
  });

  test('a failure is refunded in the statement that writes its record and its day', async () => {
    const balance = async () =>
      Number(
        (
          await db()
            .selectFrom('accounts')
            .select('credits')
            .where('id', '=', service.accountId)
            .executeTakeFirstOrThrow()
        ).credits,
      );
    const before = await balance();
    const failed = await daysOf('failed');
    const res = await scrape(`http://127.0.0.1:${await freePort()}/`);
    await res.arrayBuffer();
    assert.equal(res.status, 502);
    const requestId = res.headers.get('x-request-id') as string;
    const ledger = await ledgerOf(requestId);
    assert.deepEqual(
      ledger.map(([kind]) => kind),
      ['reserve', 'refund'],
    );
    assert.equal(await balance(), before);
    const record = await db()
      .selectFrom('requests')
      .select(['status', 'credits'])
      .where('id', '=', requestId)
      .executeTakeFirstOrThrow();
    assert.deepEqual([record.status, Number(record.credits)], ['failed', 0]);
    assert.equal(await daysOf('failed'), failed + 1);
  });
});
