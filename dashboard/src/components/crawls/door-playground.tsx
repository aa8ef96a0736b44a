import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../../api/client.js';
import { type DoorCall, doorCurl, doorSdkCall } from '../../lib/firecrawl-snippets.js';
import { scrollable } from '../../lib/scrollable.js';
import { CopyButton } from '../copy-button.js';
import { DoorOutcome, type DoorResult } from './door-outcome.js';

type Kind = 'scrape' | 'crawl' | 'map' | 'batch';
type Format = 'markdown' | 'html' | 'links' | 'screenshot';

const KINDS: { kind: Kind; label: string; call: DoorCall }[] = [
  { kind: 'scrape', label: 'Scrape a page', call: 'scrape' },
  { kind: 'crawl', label: 'Crawl a site', call: 'crawl' },
  { kind: 'map', label: 'Map a site', call: 'map' },
  { kind: 'batch', label: 'Batch of pages', call: 'batch/scrape' },
];
const FORMATS: Format[] = ['markdown', 'html', 'links', 'screenshot'];

interface DoorForm {
  kind: Kind;
  url: string;
  /** The batch's URLs, one a line. */
  urls: string;
  formats: Format[];
  /** Pages a crawl scrapes at most, links a map answers at most. */
  limit: number;
}

/** The body POST /v2/{call} takes for the form, as the SDK and curl send it. */
function bodyOf(form: DoorForm): Record<string, unknown> {
  switch (form.kind) {
    case 'scrape':
      return { url: form.url, formats: form.formats };
    case 'crawl':
      return { url: form.url, limit: form.limit, scrapeOptions: { formats: form.formats } };
    case 'map':
      return { url: form.url, limit: form.limit };
    case 'batch':
      return {
        urls: form.urls
          .split('\n')
          .map((u) => u.trim())
          .filter(Boolean),
        formats: form.formats,
      };
  }
}

/**
 * The Firecrawl door from the Playground: a scrape, a crawl, a map or a batch, started through
 * POST /v2/…, with its curl command and SDK call; a crawl's or batch's progress is followed
 * until it ends (door-outcome.tsx shows each result).
 */
export function DoorPlayground({ client, onRan }: { client: ApiClient; onRan: () => void }) {
  const [form, setForm] = useState<DoorForm>({
    kind: 'scrape',
    url: '',
    urls: '',
    formats: ['markdown'],
    limit: 10,
  });
  const [result, setResult] = useState<DoorResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const resultRef = useRef<HTMLDivElement>(null);
  const call = KINDS.find((k) => k.kind === form.kind)?.call ?? 'scrape';
  const body = useMemo(() => bodyOf(form), [form]);
  const origin = window.location.origin;

  useEffect(() => {
    if (result) resultRef.current?.focus({ preventScroll: true });
  }, [result]);

  const change = (patch: Partial<DoorForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setError(null);
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const answer = await client.firecrawl<Record<string, unknown>>('POST', `/v2/${call}`, body);
      setResult({ kind: form.kind, answer });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
      onRan();
    }
  };

  return (
    <div class="pg-layout">
      <form class="config-form playground" onSubmit={submit} data-testid="door-form" noValidate>
        <div class="form-body">
          <fieldset class="choice">
            <legend>What to do</legend>
            <div class="segmented wrap">
              {KINDS.map((k) => (
                <label key={k.kind} class={form.kind === k.kind ? 'on' : ''}>
                  <input
                    type="radio"
                    name="door-kind"
                    value={k.kind}
                    checked={form.kind === k.kind}
                    onChange={() => change({ kind: k.kind })}
                  />
                  {k.label}
                </label>
              ))}
            </div>
          </fieldset>
          {form.kind === 'batch' ? (
            <div class="field">
              <label for="door-urls">URLs, one a line</label>
              <textarea
                id="door-urls"
                rows={4}
                value={form.urls}
                onInput={(e) => change({ urls: e.currentTarget.value })}
              />
            </div>
          ) : (
            <div class="field">
              <label for="door-url">{form.kind === 'scrape' ? 'Page URL' : 'Site URL'}</label>
              <input
                id="door-url"
                type="url"
                value={form.url}
                onInput={(e) => change({ url: e.currentTarget.value })}
              />
            </div>
          )}
          {(form.kind === 'crawl' || form.kind === 'map') && (
            <div class="field">
              <label for="door-limit">
                {form.kind === 'crawl' ? 'Pages at most' : 'Links at most'}
              </label>
              <input
                id="door-limit"
                type="number"
                min={1}
                value={form.limit}
                onInput={(e) => change({ limit: Number(e.currentTarget.value) || 1 })}
              />
            </div>
          )}
          {form.kind !== 'map' && (
            <fieldset>
              <legend>Formats</legend>
              {FORMATS.map((f) => (
                <label key={f} class="check">
                  <input
                    type="checkbox"
                    checked={form.formats.includes(f)}
                    onChange={(e) =>
                      change({
                        formats: e.currentTarget.checked
                          ? [...form.formats, f]
                          : form.formats.filter((x) => x !== f),
                      })
                    }
                  />
                  {f}
                </label>
              ))}
            </fieldset>
          )}
        </div>
        <div class="pg-send">
          {error && (
            <p class="error" role="alert" data-testid="door-error">
              {error}
            </p>
          )}
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Sending…' : `POST /v2/${call}`}
          </button>
        </div>
      </form>
      <div class="pg-result">
        <details class="curl-box">
          <summary>curl command and SDK call</summary>
          <div class="row wrap">
            <CopyButton text={doorCurl(origin, 'v2', call, body)} label="Copy as curl" />
            <CopyButton text={doorSdkCall(origin, 'v2', call, body)} label="Copy as SDK call" />
          </div>
          <pre class="source curl" {...scrollable('curl command')}>
            {doorCurl(origin, 'v2', call, body)}
          </pre>
        </details>
        <div ref={resultRef} tabIndex={-1} class="result-anchor" aria-live="polite">
          {busy && <p class="muted">Running…</p>}
          {!busy && !result && <p class="muted placeholder">The result appears here.</p>}
          {result && <DoorOutcome client={client} result={result} />}
        </div>
      </div>
    </div>
  );
}
