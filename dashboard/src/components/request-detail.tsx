import { useEffect, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../api/client.js';
import type { LogDetail, ScrapeOutcome } from '../api/types.js';
import { formatBytes, formatMs, formatTime } from '../lib/format.js';
import { href } from '../lib/route.js';
import { configToQuery, curlCommand } from '../lib/scraper-query.js';
import { scrollable } from '../lib/scrollable.js';
import { CopyButton } from './copy-button.js';
import { askedOf, DoorRequest, DoorResult } from './door-request.js';
import { StatusBadge, sourceText } from './log-table.js';
import { ResultPreview } from './result-preview.js';

/** The native scraper parameters of a logged request, for copy-as-curl (API and workflow runs). */
function nativeQuery(d: LogDetail): URLSearchParams | null {
  const p = d.params;
  if (!p || (d.record.source !== 'api' && d.record.source !== 'workflow')) return null;
  const q: Record<string, unknown> = { url: p.url };
  if (p.render) q.render = true;
  if (p.markdown) q.markdown = true;
  if (p.screenshotFullPage) q.screenshot_full_page = true;
  else if (p.screenshot) q.screenshot = true;
  if (Array.isArray(p.blockResources) && p.blockResources.length > 0)
    q.block_resources = p.blockResources.join(',');
  if (p.blockAds) q.block_ads = true;
  if (p.blockCookieBanners) q.block_cookie_banners = true;
  if (p.blockChatWidgets) q.block_chat_widgets = true;
  if (p.proxyType && p.proxyType !== 'datacenter') q.proxy_type = p.proxyType;
  if (p.proxyCountry) q.proxy_country = p.proxyCountry;
  if (Array.isArray(p.instructions) && p.instructions.length > 0) q.instructions = p.instructions;
  return configToQuery(q);
}

/** A Firecrawl-door, batch or crawl request whose kept result is its Document. */
function isDoorDocument(d: LogDetail): boolean {
  const firecrawl =
    d.record.source === 'firecrawl' || d.record.source === 'batch' || d.record.source === 'crawl';
  return firecrawl && (d.result?.contentType.startsWith('application/json') ?? false);
}

/** One request of the log: what was asked, what happened, and its result if it is kept. */
export function RequestDetail({ client, id }: { client: ApiClient; id: string }) {
  const [detail, setDetail] = useState<LogDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ScrapeOutcome | null>(null);
  const [resultError, setResultError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    client.requestDetail(id).then(
      (d) => {
        if (!live) return;
        setDetail(d);
        // A door's Document is read by DoorResult.
        if (d.result && !isDoorDocument(d)) {
          client.requestResult(id).then(
            (o) => live && setOutcome(o),
            (err: unknown) => live && setResultError(errorText(err)),
          );
        }
      },
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [client, id]);

  if (error)
    return (
      <>
        <p class="crumbs">
          <a href={href.requests()}>← Requests</a>
        </p>
        <p class="error" role="alert">
          {error}
        </p>
      </>
    );
  if (!detail) return <p aria-live="polite">Loading…</p>;
  const r = detail.record;
  const query = nativeQuery(detail);
  const asked = askedOf(detail);
  return (
    <article aria-labelledby="req-title" data-testid="request-detail">
      <p class="crumbs">
        <a href={href.requests()}>← Requests</a>
      </p>
      <h1 id="req-title" class="break">
        {r.url}
      </h1>
      <dl class="facts">
        <div>
          <dt>Status</dt>
          <dd data-testid="detail-status">
            <StatusBadge r={r} />
          </dd>
        </div>
        <div>
          <dt>Target status</dt>
          <dd data-testid="detail-target-status">{r.targetStatus ?? '–'}</dd>
        </div>
        <div>
          <dt>Credits</dt>
          <dd data-testid="detail-credits">{r.creditsSpent}</dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>
            {sourceText(r.source)}
            {r.workflowId && (
              <>
                {' · '}
                <a href={href.workflow(r.workflowId)}>{detail.workflowName ?? 'workflow'}</a>
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{formatTime(r.createdAt)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatMs(r.durationMs)}</dd>
        </div>
        <div>
          <dt>Output</dt>
          <dd>
            {r.outputType}
            {r.render ? ', rendered' : ''}
          </dd>
        </div>
        <div>
          <dt>Proxy</dt>
          <dd>
            {r.proxyType}
            {r.proxyCountry ? ` (${r.proxyCountry})` : ''}
          </dd>
        </div>
        <div>
          <dt>Request id</dt>
          <dd class="break mono">{r.id}</dd>
        </div>
      </dl>
      {r.error && (
        <p class="error" data-testid="detail-error">
          {r.error}
        </p>
      )}
      {r.webhook && (
        <>
          <h2>Webhook delivery</h2>
          <dl class="facts" data-testid="detail-webhook">
            <div>
              <dt>State</dt>
              <dd>{r.webhook.status}</dd>
            </div>
            <div>
              <dt>Attempts</dt>
              <dd>{r.webhook.attempts}</dd>
            </div>
            <div class="grow">
              <dt>Address</dt>
              <dd class="break">{r.webhook.url}</dd>
            </div>
            {r.webhook.lastError && (
              <div class="grow">
                <dt>Last error</dt>
                <dd class="break">{r.webhook.lastError}</dd>
              </div>
            )}
          </dl>
        </>
      )}
      {asked ? (
        <DoorRequest asked={asked} source={r.source} />
      ) : (
        <>
          <h2>Parameters</h2>
          {query && (
            <div class="row wrap">
              <CopyButton text={curlCommand(window.location.origin, query)} label="Copy as curl" />
            </div>
          )}
          <pre class="source" data-testid="detail-params" {...scrollable('Parameters')}>
            {JSON.stringify(detail.params, null, 2)}
          </pre>
        </>
      )}
      <h2>Result</h2>
      {!detail.result && (
        <p class="muted" data-testid="detail-no-result">
          {r.status === 'success'
            ? 'This result is not kept (older than the retention, or too large).'
            : 'A failed request has no result.'}
        </p>
      )}
      {detail.result && (
        <p class="muted small">
          Kept: {detail.result.contentType}, {formatBytes(detail.result.size)} ·{' '}
          <DownloadLink client={client} id={r.id} />
        </p>
      )}
      {resultError && (
        <p class="error" role="alert">
          {resultError}
        </p>
      )}
      {isDoorDocument(detail) && <DoorResult client={client} id={r.id} />}
      {outcome && <ResultPreview outcome={outcome} showMeta={false} />}
    </article>
  );
}

/** The key travels in a header, so a download is fetched, then handed over as a blob. */
function DownloadLink({ client, id }: { client: ApiClient; id: string }) {
  const download = async () => {
    const res = await fetch(`/api/requests/${encodeURIComponent(id)}/result?download=true`, {
      headers: { 'X-API-Key': client.apiKey },
    });
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = `pagegrab-${id}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <button type="button" class="link" onClick={download}>
      Download
    </button>
  );
}
