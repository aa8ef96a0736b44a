/**
 * A scheduled run is one `schedule-run` job, enqueued by the scheduler of whichever node
 * claims the due schedule. Its id is derived from (workflow, due time), so the same due time
 * enqueued twice (two nodes, a retried batch) is still one job, run by one holder at a time.
 */
export const RUN_JOB = 'schedule-run';

/** Claims of a run before it gives up: only a holder dying mid-run uses more than one. */
export const RUN_MAX_ATTEMPTS = 3;

export const runJobId = (workflowId: string, scheduledFor: number) =>
  `schedule.${workflowId}.${scheduledFor}`;

export interface RunPayload {
  workflowId: string;
  accountId: string;
  /** The due time (epoch ms). */
  scheduledFor: number;
  /** The one run made up for due times missed while no node ran. */
  catchUp: boolean;
}
