import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiClient, ApiError, errorText } from '../api/client.js';
import type { ScrapeOutcome, Workflow } from '../api/types.js';
import { type ConfigForm, emptyForm, formToConfig } from '../lib/config-form.js';
import { checkUrl, type FieldErrors, fieldOfError, withoutFields } from '../lib/field-errors.js';
import { href } from '../lib/route.js';
import { configToQuery, curlCommand } from '../lib/scraper-query.js';
import { scrollable } from '../lib/scrollable.js';
import { ConfigFields } from './config-fields.js';
import { CopyButton } from './copy-button.js';
import { DoorPlayground } from './crawls/door-playground.js';
import { ResultPreview } from './result-preview.js';

interface Props {
  client: ApiClient;
  onRan: () => void;
  onSaved: (w: Workflow) => void;
}

/**
 * A one-off scraper request built from a form, beside its result on wide screens: the
 * curl command that does the same, a timer and Cancel while it runs, copy and download of
 * the result, and "save as workflow". Errors sit next to the field they are about and go
 * as soon as that field changes.
 */
export function Playground({ client, onRan, onSaved }: Props) {
  const [form, setForm] = useState<ConfigForm>(emptyForm);
  const [outcome, setOutcome] = useState<ScrapeOutcome | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [started, setStarted] = useState<number | null>(null);
  const [now, setNow] = useState(0);
  const [cancelled, setCancelled] = useState(false);
  const abort = useRef<AbortController | null>(null);
  // The Firecrawl door instead of the native scraper.
  const [door, setDoor] = useState(false);
  const resultRef = useRef<HTMLDivElement>(null);

  // The elapsed time while a request runs, a tenth of a second at a time.
  useEffect(() => {
    if (started === null) return;
    const timer = setInterval(() => setNow(performance.now()), 100);
    return () => clearInterval(timer);
  }, [started]);

  // Focus goes to the result's heading (the Send button is disabled while it runs, which
  // drops focus to the body); on a narrow screen the result is below the form: scroll to it.
  useEffect(() => {
    if (!outcome) return;
    const heading = resultRef.current?.querySelector<HTMLElement>('#pg-result-title');
    (heading ?? resultRef.current)?.focus({ preventScroll: true });
    if (window.matchMedia('(max-width: 1099px)').matches) {
      resultRef.current?.scrollIntoView({ block: 'start' });
    }
  }, [outcome]);

  const query = useMemo(() => {
    const { render, url, ...rest } = formToConfig(form);
    // render=false is the default: leave it out of the request and the command.
    return configToQuery({ ...(url ? { url } : {}), ...(render ? { render } : {}), ...rest });
  }, [form]);
  const curl = curlCommand(window.location.origin, query);

  const change = (patch: Partial<ConfigForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setErrors((e) => withoutFields(e, Object.keys(patch)));
    setFormError(null);
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const urlProblem = checkUrl(form.url);
    if (urlProblem) {
      setErrors({ url: urlProblem });
      document.getElementById('pg-url')?.focus();
      return;
    }
    const ctl = new AbortController();
    abort.current = ctl;
    setStarted(performance.now());
    setNow(performance.now());
    setCancelled(false);
    setErrors({});
    setFormError(null);
    setOutcome(null);
    try {
      setOutcome(await client.scrape(query, ctl.signal));
    } catch (err) {
      if (ctl.signal.aborted) setCancelled(true);
      else {
        const text = errorText(err);
        const field = err instanceof ApiError ? fieldOfError(text) : null;
        if (field) setErrors({ [field]: text });
        else setFormError(text);
      }
    } finally {
      abort.current = null;
      setStarted(null);
      onRan();
    }
  };

  if (door)
    return (
      <section aria-labelledby="pg-title">
        <h1 id="pg-title">Playground</h1>
        <ApiChoice door={door} onChange={setDoor} />
        <DoorPlayground client={client} onRan={onRan} />
      </section>
    );

  const busy = started !== null;
  const elapsed = busy ? ((now - started) / 1000).toFixed(1) : null;
  const errorCount = Object.keys(errors).length;
  return (
    <section aria-labelledby="pg-title">
      <h1 id="pg-title">Playground</h1>
      <ApiChoice door={door} onChange={setDoor} />
      <p class="muted">A one-off request to /api/scraper. It appears in the request log.</p>
      <div class="pg-layout">
        <form
          class="config-form playground"
          onSubmit={submit}
          data-testid="playground-form"
          noValidate
        >
          <div class="form-body">
            <ConfigFields form={form} idPrefix="pg" onChange={change} errors={errors} />
          </div>
          <div class="pg-send">
            {errorCount > 0 && (
              <p class="error" role="alert" data-testid="form-error">
                {errors[Object.keys(errors)[0] ?? ''] ?? ''}
              </p>
            )}
            {formError && (
              <p class="error" role="alert" data-testid="form-error">
                {formError}
              </p>
            )}
            <div class="row wrap">
              <button type="submit" class="primary" disabled={busy}>
                {busy ? 'Sending…' : 'Send request'}
              </button>
              <SaveAsWorkflow client={client} form={form} onSaved={onSaved} />
            </div>
          </div>
        </form>
        <div class="pg-result">
          <div class="sticky">
            <details class="curl-box">
              <summary>curl command</summary>
              <div class="row spread">
                <span class="muted small">The key is $PAGEGRAB_API_KEY, never the real one.</span>
                <CopyButton text={curl} label="Copy as curl" testId="copy-curl" />
              </div>
              <pre class="source curl" data-testid="curl-command" {...scrollable('curl command')}>
                {curl}
              </pre>
            </details>
            <div ref={resultRef} tabIndex={-1} class="result-anchor" aria-live="polite">
              {busy && (
                <div class="running" data-testid="pg-running">
                  <span class="spinner" aria-hidden="true" />
                  <span>
                    Running… <span data-testid="pg-elapsed">{elapsed}</span> s
                  </span>
                  <button type="button" onClick={() => abort.current?.abort()}>
                    Cancel
                  </button>
                </div>
              )}
              {cancelled && (
                <p class="muted" data-testid="pg-cancelled">
                  Cancelled. Nothing was charged if the page had not answered yet.
                </p>
              )}
              {!busy && !outcome && !cancelled && (
                <p class="muted placeholder">The result appears here.</p>
              )}
              {outcome && (
                <>
                  <h2 id="pg-result-title" tabIndex={-1}>
                    Result
                  </h2>
                  <ResultActions outcome={outcome} />
                  <ResultPreview outcome={outcome} />
                </>
              )}
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}

/** Which API the Playground calls: the native scraper or the Firecrawl door. */
function ApiChoice({ door, onChange }: { door: boolean; onChange: (door: boolean) => void }) {
  const options = [
    { door: false, label: 'Native scraper (/api/scraper)' },
    { door: true, label: 'Firecrawl API (/v2)' },
  ];
  return (
    <fieldset class="segmented wrap" data-testid="api-choice">
      <legend class="visually-hidden">API</legend>
      {options.map((o) => (
        <label key={o.label} class={door === o.door ? 'on' : ''}>
          <input
            type="radio"
            name="pg-api"
            checked={door === o.door}
            onChange={() => onChange(o.door)}
          />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

const EXTENSION = { html: 'html', markdown: 'md', screenshot: 'png', webhook: 'json' } as const;

function ResultActions({ outcome }: { outcome: ScrapeOutcome }) {
  const download = () => {
    const blob =
      outcome.kind === 'screenshot'
        ? outcome.blob
        : new Blob([outcome.kind === 'webhook' ? outcome.message : outcome.text], {
            type: outcome.kind === 'markdown' ? 'text/markdown' : 'text/html',
          });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `page.${EXTENSION[outcome.kind]}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const id = outcome.meta.requestId;
  return (
    <div class="row wrap result-actions" data-testid="result-actions">
      {(outcome.kind === 'html' || outcome.kind === 'markdown') && (
        <CopyButton text={outcome.text} label="Copy result" testId="copy-result" />
      )}
      {outcome.kind !== 'webhook' && (
        <button type="button" onClick={download} data-testid="download-result">
          Download
        </button>
      )}
      {id && (
        <a class="button" href={href.request(id)}>
          In the request log
        </a>
      )}
    </div>
  );
}

function SaveAsWorkflow({
  client,
  form,
  onSaved,
}: {
  client: ApiClient;
  form: ConfigForm;
  onSaved: (w: Workflow) => void;
}) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Save as workflow
      </button>
    );
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      onSaved(await client.createWorkflow(name.trim(), formToConfig(form)));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="save-as" data-testid="save-as">
      <label for="pg-save-name">Workflow name</label>
      <div class="row wrap">
        <input
          id="pg-save-name"
          value={name}
          maxLength={100}
          onInput={(e) => {
            setName(e.currentTarget.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void save();
            }
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'pg-save-error' : undefined}
        />
        <button type="button" class="primary" onClick={save} disabled={busy}>
          Save workflow
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {error && (
        <p id="pg-save-error" class="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
