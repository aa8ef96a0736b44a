/**
 * A schedule in words and its next due times, computed in the browser while the user types
 * (cronstrue for the words, croner for the times: the server checks with croner too).
 */
import { Cron } from 'croner';
import cronstrue from 'cronstrue';

export interface SchedulePreview {
  /** e.g. "At 09:00 (Europe/Berlin)". */
  text: string;
  /** The next due times, as instants. */
  next: Date[];
}

/** The preview, or an error text when the expression or zone cannot be read. */
export function previewSchedule(
  cron: string,
  timezone: string,
  count = 3,
): SchedulePreview | { error: string } {
  const expression = cron.trim().replace(/\s+/g, ' ');
  if (!expression) return { error: 'Enter a cron expression, e.g. 0 9 * * 1-5 or @daily' };
  try {
    const job = new Cron(expression, {
      paused: true,
      timezone: timezone.trim() || 'UTC',
      fixedTimeRule: 'no-wildcard',
    });
    const next = job.nextRuns(count);
    const words = cronstrue.toString(expression, { use24HourTimeFormat: true });
    return { text: `${words} (${timezone.trim() || 'UTC'})`, next };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** An instant as wall-clock time in the schedule's zone, e.g. "Mon 27 Nov, 09:00". */
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
