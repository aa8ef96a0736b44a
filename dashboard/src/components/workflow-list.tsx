import { useRef } from 'preact/hooks';
import type { ApiClient } from '../api/client.js';
import type { Schedule } from '../api/schedule-client.js';
import type { Workflow } from '../api/types.js';
import { formatTime } from '../lib/format.js';
import { href, navigate } from '../lib/route.js';
import { ScheduleFacts } from './schedule-summary.js';
import { useSchedules } from './use-schedules.js';
import type { WorkflowStore } from './use-workflows.js';

type Tab = 'active' | 'archived';
const TABS: readonly Tab[] = ['active', 'archived'];
const LABEL: Record<Tab, string> = { active: 'Active', archived: 'Archived' };

/** The two lists as WAI-ARIA tabs: arrow keys move between tabs, Tab moves into the panel. */
export function WorkflowList({
  tab,
  store,
  client,
}: {
  tab: Tab;
  store: WorkflowStore;
  client?: ApiClient;
}) {
  const schedules = useSchedules(client);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const shown = store.list?.filter((w) => w.archived === (tab === 'archived')) ?? [];

  const onKeyDown = (e: KeyboardEvent) => {
    const i = TABS.indexOf(tab);
    let next: number | null = null;
    if (e.key === 'ArrowRight') next = (i + 1) % TABS.length;
    if (e.key === 'ArrowLeft') next = (i + TABS.length - 1) % TABS.length;
    if (e.key === 'Home') next = 0;
    if (e.key === 'End') next = TABS.length - 1;
    if (next === null) return;
    e.preventDefault();
    navigate(href.list(TABS[next]));
    tabRefs.current[next]?.focus();
  };

  return (
    <section aria-labelledby="workflows-title">
      <div class="row spread">
        <h1 id="workflows-title">Workflows</h1>
        <a class="button primary" href={href.create()}>
          New workflow
        </a>
      </div>
      <div role="tablist" aria-label="Workflow lists" class="tabs" onKeyDown={onKeyDown}>
        {TABS.map((t, i) => (
          <button
            key={t}
            ref={(el) => {
              tabRefs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${t}`}
            aria-selected={t === tab}
            aria-controls={`panel-${t}`}
            tabIndex={t === tab ? 0 : -1}
            onClick={() => navigate(href.list(t))}
          >
            {LABEL[t]}
            {store.list && (
              <span class="count">
                {store.list.filter((w) => w.archived === (t === 'archived')).length}
              </span>
            )}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`panel-${tab}`}
        aria-labelledby={`tab-${tab}`}
        data-testid={`panel-${tab}`}
      >
        {store.error && (
          <p class="error" role="alert">
            {store.error}
          </p>
        )}
        {!store.list && !store.error && <p aria-live="polite">Loading…</p>}
        {store.list && shown.length === 0 && (
          <p class="muted">
            {tab === 'active'
              ? 'No workflows yet. Create one to save a scraper configuration.'
              : 'No archived workflows.'}
          </p>
        )}
        {shown.length > 0 && (
          <ul class="wf-list">
            {shown.map((w) => (
              <WorkflowRow key={w.id} w={w} schedule={schedules.get(w.id)} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function WorkflowRow({ w, schedule }: { w: Workflow; schedule: Schedule | undefined }) {
  // Older list answers may carry render as a string (description: workflow config notes).
  const render = String(w.config.render) === 'true';
  return (
    <li class="wf-row" data-testid="workflow-row" data-workflow-id={w.id}>
      <a class="wf-name" href={href.workflow(w.id)}>
        {w.name}
      </a>
      <span class="wf-url" title={String(w.config.url)}>
        {String(w.config.url)}
      </span>
      <dl class="wf-meta">
        <div>
          <dt>Render</dt>
          <dd>{render ? 'yes' : 'no'}</dd>
        </div>
        <div>
          <dt>Last run</dt>
          <dd>{formatTime(w.lastRun)}</dd>
        </div>
        <div>
          <dt>Credits spent</dt>
          <dd data-testid="workflow-credits">{w.creditsSpent}</dd>
        </div>
        <ScheduleFacts schedule={schedule} />
      </dl>
    </li>
  );
}
