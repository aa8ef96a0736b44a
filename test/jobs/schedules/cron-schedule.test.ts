/**
 * The cron rules (pure, croner underneath): field counts, shorthands, the seconds field only
 * when the test setting allows it, zone names, and the minimum interval found even where an
 * expression's gaps are uneven.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAppError } from '../../../src/errors.js';
import { canonicalZone, parseCronSchedule } from '../../../src/jobs/schedules/cron-schedule.js';

const NOW = Date.UTC(2027, 0, 4, 8, 0, 0); // a Monday
const RULES = { minIntervalMs: 60_000, allowSeconds: false };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isAppError(error)) return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

test('five fields and shorthands are read; extra spaces are dropped', () => {
  assert.equal(parseCronSchedule(' 0   9 * * 1-5 ', 'UTC', RULES, NOW).cron, '0 9 * * 1-5');
  const weekly = parseCronSchedule('@WEEKLY', 'UTC', RULES, NOW);
  assert.equal(weekly.cron, '@weekly');
  assert.equal(new Date(weekly.nextAfter(NOW) ?? 0).getUTCDay(), 0, 'Sunday midnight');
  const weekdays = parseCronSchedule('0 9 * * 1-5', 'UTC', RULES, NOW).nextRuns(NOW, 6);
  assert.deepEqual(
    weekdays.map((t) => new Date(t).getUTCDay()),
    [1, 2, 3, 4, 5, 1],
  );
});

test('a seconds field only with the test setting', () => {
  assert.match(
    refusal(() => parseCronSchedule('*/5 * * * * *', 'UTC', RULES, NOW)),
    /got 6/,
  );
  const seconds = parseCronSchedule(
    '*/5 * * * * *',
    'UTC',
    { minIntervalMs: 1000, allowSeconds: true },
    NOW,
  );
  assert.deepEqual(seconds.nextRuns(NOW, 2), [NOW + 5000, NOW + 10_000]);
});

test('the minimum interval holds for uneven gaps too', () => {
  const fiveMinutes = { minIntervalMs: 300_000, allowSeconds: false };
  assert.equal(
    refusal(() => parseCronSchedule('0,1 * * * *', 'UTC', fiveMinutes, NOW)),
    'Schedule runs too often: at most once every 300 seconds',
  );
  assert.equal(parseCronSchedule('*/5 * * * *', 'UTC', fiveMinutes, NOW).cron, '*/5 * * * *');
});

test('zones: the database spelling when the case differs, refusals name the zone', () => {
  assert.equal(canonicalZone('america/new_york'), 'America/New_York');
  assert.equal(canonicalZone('UTC'), 'UTC');
  assert.equal(canonicalZone('Asia/Kolkata'), 'Asia/Kolkata');
  assert.equal(
    refusal(() => canonicalZone('Europe/Atlantis')),
    'Unknown time zone: Europe/Atlantis',
  );
  assert.equal(
    refusal(() => canonicalZone('')),
    'Unknown time zone: ""',
  );
});
