import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ApiClient } from '../api/client.js';
import { errorText } from '../api/client.js';
import {
  deleteSchedule,
  getSchedule,
  previewSchedule,
  putSchedule,
  type Schedule,
  type ScheduleInput,
} from '../api/schedule-client.js';
import type { Workflow } from '../api/types.js';
import { browserZone, cronWords, inZone, zoneLabel } from '../lib/schedule-text.js';

interface Props {
  client: ApiClient;
  workflow: Workflow;
}

const SHORTHANDS = ['@hourly', '@daily', '@weekly', '@monthly'];

/** Keystrokes closer than this share one check by the service. */
const PREVIEW_DELAY_MS = 250;

type Preview = { text: string } | { error: string };

/**
 * The form's expression and zone as the service checks them (the parser a save uses, the
 * same refusals in the same words), in words with their next runs in the schedule's zone.
 */
function usePreview(client: ApiClient, cron: string, timezone: string): Preview | null {
  const [preview, setPreview] = useState<Preview | null>(null);
  useEffect(() => {
    if (!cron.trim()) {
      setPreview({ error: 'Enter a cron expression, e.g. 0 9 * * 1-5 or @daily' });
      return;
    }
    let current = true;
    const timer = setTimeout(async () => {
      try {
        const checked = await previewSchedule(client, cron, timezone.trim() || 'UTC');
        const words = cronWords(checked.cron) ?? checked.cron;
        const next = checked.nextRuns.slice(0, 3).map((at) => inZone(at, checked.timezone));
        if (current) {
          setPreview({
            text: `${words} (${zoneLabel(checked.timezone)}); next: ${next.join(', ') || 'never'}`,
          });
        }
      } catch (err) {
        if (current) setPreview({ error: errorText(err) });
      }
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [client, cron, timezone]);
  return preview;
}

/**
 * A workflow's schedule: set or change it with a live preview of its words and next due
 * times in its zone, pause or resume it, remove it; its state, next runs, last run, and why
 * it disabled itself after failed runs.
 */
export function SchedulePanel({ client, workflow }: Props) {
  const [schedule, setSchedule] = useState<Schedule | null | undefined>(undefined);
  const [cron, setCron] = useState('');
  const [timezone, setTimezone] = useState(browserZone());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const preview = usePreview(client, cron, timezone);

  const load = useCallback(async () => {
    try {
      const found = await getSchedule(client, workflow.id);
      setSchedule(found);
      if (found) {
        setCron(found.cron);
        setTimezone(found.timezone);
      }
    } catch (err) {
      setError(errorText(err));
    }
  }, [client, workflow.id]);
  useEffect(() => {
    void load();
  }, [load]);

  const act = async (work: () => Promise<Schedule | null>) => {
    setBusy(true);
    setError(null);
    try {
      const next = await work();
      setSchedule(next);
      if (next) {
        setCron(next.cron);
        setTimezone(next.timezone);
      }
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const put = (input: ScheduleInput) => act(() => putSchedule(client, workflow.id, input));

  if (workflow.archived) {
    return (
      <p class="muted" data-testid="schedule-archived">
        Archived workflows never run on their schedule.
        {schedule
          ? ` Its schedule (${schedule.cron}, ${schedule.timezone}) resumes when unarchived; missed runs are not replayed.`
          : ''}
      </p>
    );
  }
  if (schedule === undefined && !error) return <p aria-live="polite">Loading…</p>;

  return (
    <section class="schedule" data-testid="schedule-panel" aria-labelledby="schedule-title">
      <h2 id="schedule-title">Schedule</h2>
      {schedule && <ScheduleState schedule={schedule} />}
      <form
        class="schedule-form"
        onSubmit={(e) => {
          e.preventDefault();
          void put({ cron, timezone, enabled: true });
        }}
      >
        <label>
          Cron (minute hour day month weekday)
          <input
            name="cron"
            data-testid="schedule-cron"
            value={cron}
            placeholder="0 9 * * 1-5"
            list="cron-shorthands"
            onInput={(e) => setCron(e.currentTarget.value)}
            required
          />
        </label>
        <datalist id="cron-shorthands">
          {SHORTHANDS.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <label>
          Time zone
          <input
            name="timezone"
            data-testid="schedule-timezone"
            value={timezone}
            onInput={(e) => setTimezone(e.currentTarget.value)}
            required
          />
        </label>
        <p class="schedule-preview" data-testid="schedule-preview" aria-live="polite">
          {preview === null ? 'Checking…' : 'error' in preview ? preview.error : preview.text}
        </p>
        <div class="row wrap">
          <button type="submit" class="primary" disabled={busy} data-testid="schedule-save">
            {schedule ? 'Save schedule' : 'Set schedule'}
          </button>
          {schedule && (
            <button
              type="button"
              disabled={busy}
              data-testid="schedule-toggle"
              onClick={() => void put({ enabled: !schedule.enabled })}
            >
              {schedule.enabled ? 'Pause' : 'Resume'}
            </button>
          )}
          {schedule && (
            <button
              type="button"
              disabled={busy}
              data-testid="schedule-remove"
              onClick={() =>
                void act(async () => {
                  await deleteSchedule(client, workflow.id);
                  return null;
                })
              }
            >
              Remove schedule
            </button>
          )}
        </div>
      </form>
      {error && (
        <p class="error" role="alert" data-testid="schedule-error">
          {error}
        </p>
      )}
    </section>
  );
}

function ScheduleState({ schedule: s }: { schedule: Schedule }) {
  const state = s.enabled ? 'active' : s.disabledReason ? 'disabled' : 'paused';
  return (
    <div data-testid="schedule-state" data-state={state}>
      <p>
        <span class={`badge ${s.enabled ? 'ok' : 'bad'}`}>{state}</span> {s.cron} ({s.timezone})
      </p>
      {s.disabledReason && (
        <p class="error" role="alert" data-testid="schedule-disabled-reason">
          {s.disabledReason}
        </p>
      )}
      <dl class="facts">
        <div>
          <dt>Next runs ({zoneLabel(s.timezone)})</dt>
          <dd data-testid="schedule-next-runs">
            {s.nextRuns.length > 0
              ? s.nextRuns.map((at) => inZone(at, s.timezone)).join(', ')
              : 'none'}
          </dd>
        </div>
        <div>
          <dt>Last scheduled run ({zoneLabel(s.timezone)})</dt>
          <dd data-testid="schedule-last-run">
            {s.lastRun
              ? `${inZone(s.lastRun.scheduledFor, s.timezone)}: ${s.lastRun.status}`
              : 'none yet'}
          </dd>
        </div>
      </dl>
    </div>
  );
}
