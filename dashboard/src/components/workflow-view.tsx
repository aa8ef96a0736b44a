import { useCallback, useEffect, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../api/client.js';
import type { RequestRecord, Workflow } from '../api/types.js';
import { formatTime } from '../lib/format.js';
import { href } from '../lib/route.js';
import { curlCommand } from '../lib/scraper-query.js';
import { scrollable } from '../lib/scrollable.js';
import { CopyButton } from './copy-button.js';
import { HistoryTable } from './history-table.js';
import { RenameForm } from './rename-form.js';
import { RunPanel } from './run-panel.js';
import { SchedulePanel } from './schedule-panel.js';

interface Props {
  client: ApiClient;
  workflow: Workflow;
  onChange: (w: Workflow) => void;
  /** After a run or a refresh: reload the balance and the workflow's own figures. */
  onRan: () => void;
}

/** One workflow: its config, rename, archive/unarchive, run now, and its request history. */
export function WorkflowView({ client, workflow: w, onChange, onRan }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [records, setRecords] = useState<RequestRecord[] | null>(null);
  const [historyError, setHistoryError] = useState<string | null>(null);

  const loadHistory = useCallback(async () => {
    try {
      setRecords(await client.requests(w.id));
      setHistoryError(null);
    } catch (err) {
      setHistoryError(errorText(err));
    }
  }, [client, w.id]);
  useEffect(() => {
    void loadHistory();
  }, [loadHistory]);

  const toggleArchive = async () => {
    setBusy(true);
    setError(null);
    try {
      onChange(
        w.archived ? await client.unarchiveWorkflow(w.id) : await client.archiveWorkflow(w.id),
      );
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const configJson = JSON.stringify(w.config, null, 2);
  const curl = curlCommand(window.location.origin, new URLSearchParams({ workflow_id: w.id }));
  return (
    <article aria-labelledby="wf-title" data-testid="workflow-view">
      <p class="crumbs">
        <a href={href.list(w.archived ? 'archived' : 'active')}>
          ← {w.archived ? 'Archived' : 'Active'} workflows
        </a>
      </p>
      <div class="row spread wrap">
        <h1 id="wf-title" data-testid="workflow-title">
          {w.name} {w.archived && <span class="badge">archived</span>}
        </h1>
        <div class="row wrap">
          {!w.archived && (
            <a class="button" href={href.edit(w.id)}>
              Edit
            </a>
          )}
          <button type="button" onClick={toggleArchive} disabled={busy}>
            {w.archived ? 'Unarchive' : 'Archive'}
          </button>
        </div>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!w.archived && <RenameForm client={client} workflow={w} onRenamed={onChange} />}
      <dl class="facts">
        <div>
          <dt>URL</dt>
          <dd class="break">{String(w.config.url)}</dd>
        </div>
        <div>
          <dt>Last run</dt>
          <dd>{formatTime(w.lastRun)}</dd>
        </div>
        <div>
          <dt>Credits spent</dt>
          <dd data-testid="workflow-credits-spent">{w.creditsSpent}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatTime(w.createdAt)}</dd>
        </div>
      </dl>
      <details class="config">
        <summary>Saved config</summary>
        <pre class="source" {...scrollable('Saved config')}>
          {configJson}
        </pre>
      </details>
      <details class="curl-box">
        <summary>Run it with curl</summary>
        <div class="row spread">
          <span class="muted small">The key is $PAGEGRAB_API_KEY, never the real one.</span>
          <CopyButton text={curl} label="Copy as curl" testId="workflow-copy-curl" />
        </div>
        <pre class="source curl" data-testid="workflow-curl" {...scrollable('curl command')}>
          {curl}
        </pre>
      </details>
      <h2>Run now</h2>
      {w.archived ? (
        <p class="muted">Archived workflows cannot run. Unarchive it to run or edit it.</p>
      ) : (
        <RunPanel
          client={client}
          workflow={w}
          onRan={() => {
            onRan();
            void loadHistory();
          }}
        />
      )}
      <SchedulePanel client={client} workflow={w} />
      <div class="row spread section-head">
        <h2>History</h2>
        {/* Webhook runs finish after their answer: their credits reach the workflow's
            figures and the balance only later, so Refresh brings those along too. */}
        <button
          type="button"
          onClick={() => {
            onRan();
            void loadHistory();
          }}
        >
          Refresh
        </button>
      </div>
      {historyError && (
        <p class="error" role="alert">
          {historyError}
        </p>
      )}
      {records ? <HistoryTable records={records} /> : !historyError && <p>Loading…</p>}
    </article>
  );
}
