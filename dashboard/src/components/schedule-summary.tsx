import type { Schedule } from '../api/schedule-client.js';
import { inZone, zoneLabel } from '../lib/schedule-text.js';

/**
 * The next and last scheduled run of a workflow, for its row in the workflow list: both on
 * the schedule's clock, which the row names.
 */
export function ScheduleFacts({ schedule }: { schedule: Schedule | undefined }) {
  if (!schedule) return <span class="muted">–</span>;
  const next = schedule.nextRuns[0];
  const paused = schedule.disabledReason ? 'disabled' : 'paused';
  const at = (iso: string) => inZone(iso, schedule.timezone);
  return (
    <span class="stack small">
      <span data-testid="schedule-next" title={`${schedule.cron} (${schedule.timezone})`}>
        Next: {schedule.enabled ? (next ? at(next) : '–') : paused}
      </span>
      <span data-testid="schedule-last">
        Last:{' '}
        {schedule.lastRun
          ? `${at(schedule.lastRun.scheduledFor)} ${schedule.lastRun.status}`
          : 'never'}
      </span>
      <span class="muted" data-testid="schedule-zone">
        {zoneLabel(schedule.timezone)}
      </span>
    </span>
  );
}
