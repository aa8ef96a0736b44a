import { useRef, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../api/client.js';
import type { ScrapeOutcome, Workflow } from '../api/types.js';
import { type RunOutput, runQuery } from '../lib/scraper-query.js';
import { ResultPreview } from './result-preview.js';

const OUTPUTS: { value: RunOutput; label: string }[] = [
  { value: 'saved', label: 'As saved' },
  { value: 'html', label: 'HTML' },
  { value: 'markdown', label: 'Markdown' },
  { value: 'screenshot', label: 'Screenshot (renders)' },
];

interface Props {
  client: ApiClient;
  workflow: Workflow;
  onRan: () => void;
}

/** Runs the workflow through /api/scraper?workflow_id=… exactly as an API user would. */
export function RunPanel({ client, workflow, onRan }: Props) {
  const [output, setOutput] = useState<RunOutput>('saved');
  const [outcome, setOutcome] = useState<ScrapeOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);

  const run = async () => {
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    setBusy(true);
    setError(null);
    setOutcome(null);
    try {
      setOutcome(await client.scrape(runQuery(workflow.id, output), ctl.signal));
    } catch (err) {
      if (!ctl.signal.aborted) setError(errorText(err));
    } finally {
      if (abort.current === ctl) setBusy(false);
      // Failed runs are recorded too, so history and balances refresh either way.
      onRan();
    }
  };

  return (
    <div class="run" data-testid="run-panel">
      <div class="row wrap end">
        <div class="field">
          <label for="run-output">Output</label>
          <select
            id="run-output"
            value={output}
            onChange={(e) => setOutput(e.currentTarget.value as RunOutput)}
          >
            {OUTPUTS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="primary" onClick={run} disabled={busy}>
          {busy ? 'Running…' : 'Run now'}
        </button>
        {busy && (
          <button type="button" onClick={() => abort.current?.abort()}>
            Stop waiting
          </button>
        )}
      </div>
      <div aria-live="polite">
        {error && (
          <p class="error" role="alert" data-testid="run-error">
            {error}
          </p>
        )}
      </div>
      {outcome && <ResultPreview outcome={outcome} />}
    </div>
  );
}
