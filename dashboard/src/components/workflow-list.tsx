import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../api/client.js';
import type { Schedule } from '../api/schedule-client.js';
import type { LogRecord, Workflow } from '../api/types.js';
import { formatTime } from '../lib/format.js';
import { href, navigate } from '../lib/route.js';
import { runQuery } from '../lib/scraper-query.js';
import { StatusBadge } from './log-table.js';
import { ScheduleFacts } from './schedule-summary.js';
import { useSchedules } from './use-schedules.js';
import type { WorkflowStore } from './use-workflows.js';

type Tab = 'active' | 'archived';
const TABS: readonly Tab[] = ['active', 'archived'];
const LABEL: Record<Tab, string> = { active: 'Active', archived: 'Archived' };

type Sort = 'newest' | 'name' | 'lastRun' | 'credits';
const SORTS: { value: Sort; label: string }[] = [
  { value: 'newest', label: 'Newest first' },
  { value: 'name', label: 'Name' },
  { value: 'lastRun', label: 'Last run' },
  { value: 'credits', label: 'Credits spent' },
];
const COMPARE: Record<Sort, (a: Workflow, b: Workflow) => number> = {
  newest: (a, b) => b.createdAt.localeCompare(a.createdAt),
  name: (a, b) => a.name.localeCompare(b.name),
  lastRun: (a, b) => (b.lastRun ?? '').localeCompare(a.lastRun ?? ''),
  credits: (a, b) => b.creditsSpent - a.creditsSpent,
};

interface Props {
  tab: Tab;
  store: WorkflowStore;
  client: ApiClient;
  onRan: () => void;
}

/** The last record of each workflow among the account's latest requests. */
function useLastRuns(client: ApiClient, version: unknown): Map<string, LogRecord> {
  const [last, setLast] = useState(new Map<string, LogRecord>());
  useEffect(() => {
    let live = true;
    client.requestLog({}, null, 200).then(
      (page) => {
        if (!live) return;
        const map = new Map<string, LogRecord>();
        for (const r of page.records)
          if (r.workflowId && !map.has(r.workflowId)) map.set(r.workflowId, r);
        setLast(map);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client, version]);
  return last;
}

/** The two lists as WAI-ARIA tabs: arrow keys move between tabs, Tab moves into the panel. */
export function WorkflowList({ tab, store, client, onRan }: Props) {
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<Sort>('newest');
  const lastRuns = useLastRuns(client, store.list);
  const schedules = useSchedules(client);
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (store.list ?? [])
      .filter((w) => w.archived === (tab === 'archived'))
      .filter(
        (w) =>
          !needle ||
          w.name.toLowerCase().includes(needle) ||
          String(w.config.url).toLowerCase().includes(needle),
      )
      .sort(COMPARE[sort]);
  }, [store.list, tab, search, sort]);

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
        {store.list && (
          <div class="row wrap list-tools">
            <div class="field">
              <label for="wf-search">Search workflows</label>
              <input
                id="wf-search"
                type="search"
                value={search}
                placeholder="Name or URL"
                onInput={(e) => setSearch(e.currentTarget.value)}
              />
            </div>
            <div class="field">
              <label for="wf-sort">Sort by</label>
              <select
                id="wf-sort"
                value={sort}
                onChange={(e) => setSort(e.currentTarget.value as Sort)}
              >
                {SORTS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
        )}
        {store.list && search && shown.length === 0 && <p class="muted">No workflow matches.</p>}
        {shown.length > 0 && (
          <div class="table-wrap">
            <table class="history wf-table" data-testid="workflow-table">
              <thead>
                <tr>
                  {COLUMNS.map((c) => (
                    <th key={c} scope="col">
                      {c === 'Actions' ? <span class="visually-hidden">Actions</span> : c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown.map((w) => (
                  <WorkflowRow
                    key={w.id}
                    w={w}
                    last={lastRuns.get(w.id)}
                    schedule={schedules.get(w.id)}
                    client={client}
                    store={store}
                    onRan={onRan}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}

const COLUMNS = [
  'Name',
  'URL',
  'Last status',
  'Last run',
  'Schedule',
  'Credits',
  'Actions',
] as const;

interface RowProps {
  w: Workflow;
  last: LogRecord | undefined;
  schedule: Schedule | undefined;
  client: ApiClient;
  store: WorkflowStore;
  onRan: () => void;
}

function WorkflowRow({ w, last, schedule, client, store, onRan }: RowProps) {
  const [state, setState] = useState<{ busy: boolean; text: string | null; ok?: boolean }>({
    busy: false,
    text: null,
  });
  const run = async () => {
    setState({ busy: true, text: null });
    try {
      const outcome = await client.scrape(runQuery(w.id, 'saved'));
      setState({
        busy: false,
        ok: true,
        text:
          outcome.kind === 'webhook'
            ? 'Queued for the webhook'
            : `Done: target ${outcome.meta.targetStatus ?? '–'}, ${outcome.meta.creditsUsed ?? 0} credits`,
      });
    } catch (err) {
      setState({ busy: false, ok: false, text: errorText(err) });
    } finally {
      onRan();
      void store.reload();
    }
  };
  const duplicate = async () => {
    setState({ busy: true, text: null });
    try {
      const copy = await client.createWorkflow(`${w.name} (copy)`.slice(0, 100), w.config);
      store.upsert(copy);
      setState({ busy: false, ok: true, text: `Duplicated as "${copy.name}"` });
    } catch (err) {
      setState({ busy: false, ok: false, text: errorText(err) });
    }
  };
  return (
    <tr data-testid="workflow-row" data-workflow-id={w.id}>
      <td data-label={COLUMNS[0]} class="wf-name">
        <a href={href.workflow(w.id)}>{w.name}</a>
      </td>
      <td data-label={COLUMNS[1]} class="url-cell">
        <span title={String(w.config.url)}>{String(w.config.url)}</span>
      </td>
      <td data-label={COLUMNS[2]} data-testid="workflow-last-status">
        {last ? (
          <a href={href.request(last.id)} class="plain">
            <StatusBadge r={last} />
          </a>
        ) : (
          <span class="muted">{w.lastRun ? 'see history' : 'never run'}</span>
        )}
      </td>
      <td data-label={COLUMNS[3]} class="nowrap">
        {formatTime(w.lastRun)}
      </td>
      <td data-label={COLUMNS[4]}>
        <ScheduleFacts schedule={schedule} />
      </td>
      <td data-label={COLUMNS[5]} data-testid="workflow-credits">
        {w.creditsSpent}
      </td>
      <td data-label={COLUMNS[6]} class="actions">
        <span class="row wrap">
          {!w.archived && (
            <button type="button" onClick={run} disabled={state.busy} aria-label={`Run ${w.name}`}>
              {state.busy ? 'Running…' : 'Run'}
            </button>
          )}
          <button
            type="button"
            onClick={duplicate}
            disabled={state.busy}
            aria-label={`Duplicate ${w.name}`}
          >
            Duplicate
          </button>
        </span>
        {state.text && (
          <span
            class={`small ${state.ok ? 'ok-text' : 'bad-text'}`}
            role="status"
            data-testid="row-status"
          >
            {state.text}
          </span>
        )}
      </td>
    </tr>
  );
}
