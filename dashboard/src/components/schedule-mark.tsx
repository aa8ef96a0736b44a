import { formatTime } from '../lib/format.js';

/** Marks a scheduled run in the history: its due time, and whether it was the catch-up. */
export function ScheduleMark({
  schedule,
}: {
  schedule?: { scheduledFor: string; catchUp: boolean };
}) {
  if (!schedule) return null;
  return (
    <span
      class="badge"
      data-testid="history-scheduled"
      title={`Scheduled for ${formatTime(schedule.scheduledFor)}`}
    >
      {schedule.catchUp ? 'catch-up' : 'scheduled'}
    </span>
  );
}
