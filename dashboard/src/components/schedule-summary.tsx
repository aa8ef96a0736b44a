import type { Schedule } from '../api/schedule-client.js';
import { formatTime } from '../lib/format.js';

/** The next and last scheduled run of a workflow, as two entries of its row's facts. */
export function ScheduleFacts({ schedule }: { schedule: Schedule | undefined }) {
  if (!schedule) return null;
  const next = schedule.nextRuns[0];
  const paused = schedule.disabledReason ? 'disabled' : 'paused';
  return (
    <>
      <div data-testid="schedule-next">
        <dt>Next run</dt>
        <dd title={`${schedule.cron} (${schedule.timezone})`}>
          {schedule.enabled ? (next ? formatTime(next) : '–') : paused}
        </dd>
      </div>
      <div data-testid="schedule-last">
        <dt>Last scheduled</dt>
        <dd>
          {schedule.lastRun
            ? `${formatTime(schedule.lastRun.scheduledFor)} ${schedule.lastRun.status}`
            : 'never'}
        </dd>
      </div>
    </>
  );
}
