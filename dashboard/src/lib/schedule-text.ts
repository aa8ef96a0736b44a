/**
 * A schedule in words and its times labelled with their zone. The service checks the
 * expression (GET /api/schedules/preview, the parser a save uses): the browser only puts a
 * checked expression into words (cronstrue), so it never accepts what a save refuses.
 */
import cronstrue from 'cronstrue';

/** A checked expression in words, e.g. "At 09:00"; null when cronstrue cannot say it. */
export function cronWords(cron: string): string | null {
  try {
    return cronstrue.toString(cron, { use24HourTimeFormat: true });
  } catch {
    return null;
  }
}

/** An instant as wall-clock time in a zone, e.g. "Mon 27 Nov, 09:00". */
export function inZone(date: Date | string, timezone: string): string {
  try {
    return new Intl.DateTimeFormat(undefined, {
      timeZone: timezone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(typeof date === 'string' ? new Date(date) : date);
  } catch {
    return String(date);
  }
}

/** The browser's own zone, the form's default. */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The label that says which clock a time is on: the schedule's zone, or the browser's
 * ("your time") when the two differ, so times side by side never mix clocks unlabelled.
 */
export function zoneLabel(timezone: string, own = browserZone()): string {
  return timezone === own ? `${timezone}, your time` : timezone;
}
