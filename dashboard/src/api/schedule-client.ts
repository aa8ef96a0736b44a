/**
 * The schedule routes (GET, PUT, DELETE /api/workflow/{id}/schedule, GET /api/schedules),
 * beside the main client so the two change independently. Same key header, same errors.
 */
import { type ApiClient, ApiError } from './client.js';

export interface Schedule {
  workflowId: string;
  cron: string;
  timezone: string;
  enabled: boolean;
  /** ISO times; empty while paused or while the workflow is archived. */
  nextRuns: string[];
  lastRun: { scheduledFor: string; requestId: string; status: 'success' | 'failed' } | null;
  consecutiveFailures: number;
  /** Why the schedule disabled itself after failed runs; null otherwise. */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ScheduleInput {
  cron?: string;
  timezone?: string;
  enabled?: boolean;
}

async function call<T>(client: ApiClient, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { 'X-API-Key': client.apiKey };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${client.baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? null : JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => null)) as { error?: unknown } | null;
  if (!res.ok) {
    const text = typeof answer?.error === 'string' ? answer.error : `${res.status}`;
    throw new ApiError(res.status, text);
  }
  return answer as T;
}

const path = (id: string) => `/api/workflow/${encodeURIComponent(id)}/schedule`;

/** The workflow's schedule, or null when it has none. */
export async function getSchedule(client: ApiClient, id: string): Promise<Schedule | null> {
  try {
    return await call<Schedule>(client, 'GET', path(id));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && err.message === 'Schedule not found!') {
      return null;
    }
    throw err;
  }
}

export const putSchedule = (client: ApiClient, id: string, input: ScheduleInput) =>
  call<Schedule>(client, 'PUT', path(id), input);

export const deleteSchedule = (client: ApiClient, id: string) =>
  call<Schedule>(client, 'DELETE', path(id));

export interface SchedulePreview {
  cron: string;
  timezone: string;
  nextRuns: string[];
}

/** A cron and zone checked by the service exactly as a save checks them; a 400 otherwise. */
export const previewSchedule = (client: ApiClient, cron: string, timezone: string) =>
  call<SchedulePreview>(
    client,
    'GET',
    `/api/schedules/preview?${new URLSearchParams({ cron, timezone })}`,
  );

export const listSchedules = (client: ApiClient) =>
  call<Schedule[]>(client, 'GET', '/api/schedules');
