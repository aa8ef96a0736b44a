/**
 * A schedule's cron expression and time zone, checked and evaluated with croner (pinned):
 * five fields (minute hour day-of-month month day-of-week) or a shorthand (`@hourly`,
 * `@daily`, ...), in an IANA zone. Daylight-saving changes follow Vixie cron, as cron users
 * expect: a fixed time that falls in the spring gap runs once right after it, a fixed time
 * that occurs twice in the autumn runs once (the first), and interval jobs (`*\/15 * * * *`)
 * keep their pace in real time. A sixth, seconds field exists only when the operator's test
 * setting allows it (SCHEDULE_ALLOW_SECONDS), so tests can see many due times quickly.
 */
import { Cron } from 'croner';
import { appError } from '../../errors.js';

export interface ScheduleRules {
  /** SCHEDULE_MIN_INTERVAL_MS: the shortest gap allowed between two runs. */
  minIntervalMs: number;
  /** SCHEDULE_ALLOW_SECONDS: accept a leading seconds field (tests only). */
  allowSeconds: boolean;
}

export interface CronSchedule {
  /** The expression as stored: trimmed, fields single-spaced. */
  readonly cron: string;
  /** The zone's canonical IANA name. */
  readonly timezone: string;
  /** The first due time strictly after `after` (epoch ms), or null if none is left. */
  nextAfter(after: number): number | null;
  /** The `count` due times strictly after `after`. */
  nextRuns(after: number, count: number): number[];
  /** The last due time strictly before `before`, or null. */
  lastBefore(before: number): number | null;
}

export const SHORTHANDS: readonly string[] = [
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
];

/** Due times looked at for the minimum interval: irregular lists show a short gap early. */
const INTERVAL_SAMPLE = 100;

/** Zone names by their lower case, for spelling a zone the way the database does. */
const ZONE_NAMES: ReadonlyMap<string, string> = new Map(
  Intl.supportedValuesOf('timeZone').map((zone) => [zone.toLowerCase(), zone]),
);

/**
 * An IANA zone as the user meant it, or the 400. The letter case is the database's
 * (`europe/berlin` → `Europe/Berlin`); a name the engine accepts but spells otherwise (ICU
 * still prefers `Asia/Calcutta` to `Asia/Kolkata`) is kept as the user wrote it.
 */
export function canonicalZone(zone: unknown): string {
  if (typeof zone !== 'string' || zone.trim() === '') {
    throw appError('INVALID_TIMEZONE', JSON.stringify(zone ?? null));
  }
  const name = zone.trim();
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw appError('INVALID_TIMEZONE', name);
  }
  const lower = name.toLowerCase();
  return ZONE_NAMES.get(lower) ?? (resolved.toLowerCase() === lower ? resolved : name);
}

function fieldsOf(cron: string, rules: ScheduleRules): { text: string; mode: '5-part' | '6-part' } {
  const fields = cron.trim().split(/\s+/);
  if (fields.length === 1 && fields[0]?.startsWith('@')) {
    const name = (fields[0] as string).toLowerCase();
    if (!SHORTHANDS.includes(name)) {
      throw appError('INVALID_CRON', `unknown shorthand ${name} (use ${SHORTHANDS.join(', ')})`);
    }
    return { text: name, mode: '5-part' };
  }
  if (fields.length === 6 && rules.allowSeconds) return { text: fields.join(' '), mode: '6-part' };
  if (fields.length !== 5) {
    throw appError(
      'INVALID_CRON',
      `expected 5 fields (minute hour day-of-month month day-of-week) or a shorthand such as @hourly, got ${fields.length}`,
    );
  }
  return { text: fields.join(' '), mode: '5-part' };
}

/** Each field's name and what it takes, in the order of a 6-part expression. */
const FIELD_RULES: readonly [name: string, takes: string][] = [
  ['second', '0-59'],
  ['minute', '0-59'],
  ['hour', '0-23'],
  ['day-of-month', '1-31'],
  ['month', '1-12 or JAN-DEC'],
  ['day-of-week', '0-7 or SUN-SAT'],
];

function compileRaw(text: string, mode: '5-part' | '6-part', timezone: string): Cron {
  // no-wildcard: lists and ranges of fixed hours (`30 2,14 * * *`) are fixed-time jobs too,
  // as in Vixie cron, so they run once across a DST change.
  return new Cron(text, { paused: true, mode, timezone, fixedTimeRule: 'no-wildcard' });
}

/**
 * Why croner refused an expression, in our words (its own texts vary in style and some are
 * wrong, "Invalid value for day: 31" for a 32): the first field that fails on its own.
 */
function refusal(text: string, mode: '5-part' | '6-part'): string {
  const fields = text.split(' ');
  const rules = mode === '6-part' ? FIELD_RULES : FIELD_RULES.slice(1);
  for (const [i, field] of fields.entries()) {
    const alone = fields.map((f, j) => (j === i ? f : '*')).join(' ');
    try {
      compileRaw(alone, mode, 'UTC');
    } catch {
      const [name, takes] = rules[i] ?? ['', ''];
      return `the ${name} field "${field}" is not valid (use ${takes}, *, a list 1,15, a range 1-5 or a step */10)`;
    }
  }
  return 'its fields do not make a valid schedule';
}

function compile(text: string, mode: '5-part' | '6-part', timezone: string): Cron {
  try {
    return compileRaw(text, mode, timezone);
  } catch {
    throw appError('INVALID_CRON', refusal(text, mode));
  }
}

function wrap(cron: string, timezone: string, job: Cron): CronSchedule {
  return {
    cron,
    timezone,
    nextAfter: (after) => job.nextRun(new Date(after))?.getTime() ?? null,
    nextRuns: (after, count) => job.nextRuns(count, new Date(after)).map((d) => d.getTime()),
    lastBefore: (before) => job.previousRuns(1, new Date(before))[0]?.getTime() ?? null,
  };
}

/**
 * Checks a schedule as a user wrote it and compiles it; the 400s name what is wrong.
 * `now` anchors the interval check and the "never runs" check.
 */
export function parseCronSchedule(
  cron: unknown,
  timezone: unknown,
  rules: ScheduleRules,
  now: number,
): CronSchedule {
  if (cron === undefined || cron === null || cron === '') throw appError('CRON_REQUIRED');
  if (typeof cron !== 'string') throw appError('INVALID_CRON', 'it must be a string');
  const zone = canonicalZone(timezone);
  const { text, mode } = fieldsOf(cron, rules);
  const schedule = wrap(text, zone, compile(text, mode, zone));
  const sample = schedule.nextRuns(now, INTERVAL_SAMPLE);
  if (sample.length === 0) throw appError('INVALID_CRON', 'it never runs');
  for (let i = 1; i < sample.length; i++) {
    if ((sample[i] as number) - (sample[i - 1] as number) < rules.minIntervalMs) {
      throw appError('SCHEDULE_TOO_FREQUENT', Math.ceil(rules.minIntervalMs / 1000));
    }
  }
  return schedule;
}

/**
 * A stored schedule (checked when it was saved), compiled once per expression and zone:
 * the scheduler evaluates thousands of rows that mostly share a few expressions.
 */
export class CronCache {
  private readonly compiled = new Map<string, CronSchedule>();

  constructor(private readonly maxEntries = 2000) {}

  get(cron: string, timezone: string): CronSchedule {
    const key = `${timezone} ${cron}`;
    let schedule = this.compiled.get(key);
    if (!schedule) {
      const mode = cron.startsWith('@') || cron.split(' ').length === 5 ? '5-part' : '6-part';
      schedule = wrap(cron, timezone, compile(cron, mode, timezone));
      if (this.compiled.size >= this.maxEntries) this.compiled.clear();
      this.compiled.set(key, schedule);
    }
    return schedule;
  }
}
