import { useEffect, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../api/client.js';
import type { LogFilter, LogRecord, Workflow } from '../api/types.js';
import { href, navigate } from '../lib/route.js';
import { LogTable, sourceText } from './log-table.js';

interface Props {
  client: ApiClient;
  /** The filters, from the address (#/requests?status=failed&host=…): bookmarkable. */
  query: URLSearchParams;
  workflows: Workflow[] | null;
}

const FIELDS = ['status', 'source', 'host', 'workflow_id', 'from', 'to', 'q'] as const;
const SOURCES = ['api', 'workflow', 'schedule', 'firecrawl', 'batch', 'crawl'];

/** A day input (YYYY-MM-DD) as the API's time: the start of that day, local time. */
const dayStart = (day: string) => (day ? String(new Date(`${day}T00:00:00`).getTime()) : '');
const nextDayStart = (day: string) =>
  day ? String(new Date(`${day}T00:00:00`).getTime() + 24 * 3600_000) : '';

function filterOf(query: URLSearchParams): LogFilter {
  const f: LogFilter = {};
  for (const name of FIELDS) {
    const v = query.get(name);
    if (!v) continue;
    if (name === 'from') f.from = dayStart(v);
    else if (name === 'to') f.to = nextDayStart(v);
    else f[name] = v;
  }
  return f;
}

/** Every scrape of the account, newest first, filtered, 50 at a time (keyset pages). */
export function RequestLog({ client, query, workflows }: Props) {
  const key = query.toString();
  const [records, setRecords] = useState<LogRecord[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [draft, setDraft] = useState<Record<string, string>>({});

  useEffect(() => {
    setDraft(Object.fromEntries(FIELDS.map((f) => [f, query.get(f) ?? ''])));
    let live = true;
    setRecords(null);
    setError(null);
    client.requestLog(filterOf(query)).then(
      (page) => {
        if (!live) return;
        setRecords(page.records);
        setNext(page.next);
      },
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
    // The query's text is its identity: a new URLSearchParams per render is the same filter.
  }, [client, key]);

  const apply = (values: Record<string, string>) => {
    const q = new URLSearchParams();
    for (const f of FIELDS) if (values[f]?.trim()) q.set(f, values[f].trim());
    navigate(href.requests(q));
  };
  const set = (field: string, value: string, now = false) => {
    const values = { ...draft, [field]: value };
    setDraft(values);
    if (now) apply(values);
  };

  const more = async () => {
    if (!next) return;
    setBusy(true);
    try {
      const page = await client.requestLog(filterOf(query), next);
      setRecords((old) => [...(old ?? []), ...page.records]);
      setNext(page.next);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const filtered = FIELDS.some((f) => query.get(f));
  return (
    <section aria-labelledby="log-title" data-testid="request-log">
      <h1 id="log-title">Requests</h1>
      <p class="muted">
        Every scrape of this account: one-off, workflow and scheduled runs, the Firecrawl API, batch
        and crawl pages.
      </p>
      <form
        class="filters"
        aria-label="Filter requests"
        onSubmit={(e) => {
          e.preventDefault();
          apply(draft);
        }}
      >
        <div class="field">
          <label for="f-q">URL contains</label>
          <input
            id="f-q"
            type="search"
            value={draft.q ?? ''}
            onInput={(e) => set('q', e.currentTarget.value)}
            placeholder="/pricing"
          />
        </div>
        <div class="field">
          <label for="f-status">Status</label>
          <select
            id="f-status"
            value={draft.status ?? ''}
            onChange={(e) => set('status', e.currentTarget.value, true)}
          >
            <option value="">Any</option>
            <option value="success">Success</option>
            <option value="failed">Failed</option>
            <option value="pending">Pending</option>
          </select>
        </div>
        <div class="field">
          <label for="f-source">Source</label>
          <select
            id="f-source"
            value={draft.source ?? ''}
            onChange={(e) => set('source', e.currentTarget.value, true)}
          >
            <option value="">Any</option>
            {SOURCES.map((s) => (
              <option key={s} value={s}>
                {sourceText(s)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-host">Target host</label>
          <input
            id="f-host"
            value={draft.host ?? ''}
            onInput={(e) => set('host', e.currentTarget.value)}
            placeholder="example.com"
            spellcheck={false}
          />
        </div>
        <div class="field">
          <label for="f-workflow">Workflow</label>
          <select
            id="f-workflow"
            value={draft.workflow_id ?? ''}
            onChange={(e) => set('workflow_id', e.currentTarget.value, true)}
          >
            <option value="">Any</option>
            {(workflows ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-from">From</label>
          <input
            id="f-from"
            type="date"
            value={draft.from ?? ''}
            onChange={(e) => set('from', e.currentTarget.value, true)}
          />
        </div>
        <div class="field">
          <label for="f-to">To</label>
          <input
            id="f-to"
            type="date"
            value={draft.to ?? ''}
            onChange={(e) => set('to', e.currentTarget.value, true)}
          />
        </div>
        <div class="filter-actions">
          <button type="submit" class="primary">
            Search
          </button>
          {filtered && (
            <a class="button" href={href.requests()}>
              Clear
            </a>
          )}
        </div>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!records && !error && <p aria-live="polite">Loading…</p>}
      {records && records.length === 0 && (
        <p class="muted" data-testid="log-empty">
          {filtered ? 'No request matches these filters.' : 'No requests yet.'}
        </p>
      )}
      {records && records.length > 0 && <LogTable records={records} />}
      {next && (
        <button type="button" onClick={more} disabled={busy} data-testid="log-more">
          {busy ? 'Loading…' : 'Load older requests'}
        </button>
      )}
    </section>
  );
}
