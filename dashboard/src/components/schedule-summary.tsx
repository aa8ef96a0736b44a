import type { Schedule } from '../api/schedule-client.js';
import { formatTime } from '../lib/format.js';

/** The next and last scheduled run of a workflow, for its row in the workflow list. */
export function ScheduleFacts({ schedule }: { schedule: Schedule | undefined }) {
  if (!schedule) return <span class="muted">–</span>;
  const next = schedule.nextRuns[0];
  const paused = schedule.disabledReason ? 'disabled' : 'paused';
  return (
    <span class="stack small">
      <span data-testid="schedule-next" title={`${schedule.cron} (${schedule.timezone})`}>
        Next: {schedule.enabled ? (next ? formatTime(next) : '–') : paused}
      </span>
      <span data-testid="schedule-last">
        Last:{' '}
        {schedule.lastRun
          ? `${formatTime(schedule.lastRun.scheduledFor)} ${schedule.lastRun.status}`
          : 'never'}
      </span>
    </span>
  );
}
