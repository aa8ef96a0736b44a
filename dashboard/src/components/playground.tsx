import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../api/client.js';
import type { ScrapeOutcome } from '../api/types.js';
import { type ConfigForm, emptyForm, formToConfig } from '../lib/config-form.js';
import { configToQuery, curlCommand } from '../lib/scraper-query.js';
import { ConfigFields } from './config-fields.js';
import { ResultPreview } from './result-preview.js';

interface Props {
  client: ApiClient;
  onRan: () => void;
}

/** A one-off scraper request built from a form, with the curl command that does the same. */
export function Playground({ client, onRan }: Props) {
  const [form, setForm] = useState<ConfigForm>(emptyForm);
  const [outcome, setOutcome] = useState<ScrapeOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const resultRef = useRef<HTMLDivElement>(null);

  // The result lands below a long form, out of sight of the Send button: bring it into view
  // and move focus there so keyboard and screen-reader users arrive at it too.
  useEffect(() => {
    if (!outcome) return;
    resultRef.current?.focus({ preventScroll: true });
    resultRef.current?.scrollIntoView({ block: 'start' });
  }, [outcome]);

  const query = useMemo(() => {
    const { render, url, ...rest } = formToConfig(form);
    // render=false is the default: leave it out of the request and the command.
    return configToQuery({ ...(url ? { url } : {}), ...(render ? { render } : {}), ...rest });
  }, [form]);
  const curl = curlCommand(window.location.origin, query);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setOutcome(null);
    try {
      setOutcome(await client.scrape(query));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
      onRan();
    }
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(curl);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard needs a secure context; the command is selectable text anyway.
    }
  };

  return (
    <section aria-labelledby="pg-title">
      <h1 id="pg-title">Playground</h1>
      <p class="muted">A one-off request to /api/scraper. Nothing is saved.</p>
      <form
        class="config-form playground"
        onSubmit={submit}
        data-testid="playground-form"
        noValidate
      >
        <div class="form-body">
          <ConfigFields
            form={form}
            idPrefix="pg"
            onChange={(patch) => setForm((f) => ({ ...f, ...patch }))}
          />
        </div>
        <aside class="form-side">
          <div class="sticky">
            <div class="row spread section-head">
              <h2 id="curl-title">curl</h2>
              <button type="button" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </button>
            </div>
            <pre class="source curl" data-testid="curl-command">
              {curl}
            </pre>
            {error && (
              <p class="error" role="alert" data-testid="form-error">
                {error}
              </p>
            )}
            <button type="submit" class="primary" disabled={busy}>
              {busy ? 'Sending…' : 'Send request'}
            </button>
          </div>
        </aside>
      </form>
      <div ref={resultRef} tabIndex={-1} class="result-anchor">
        {outcome && <ResultPreview outcome={outcome} />}
      </div>
    </section>
  );
}
