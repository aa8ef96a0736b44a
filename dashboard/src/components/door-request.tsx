import { useEffect, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../api/client.js';
import type { LogDetail } from '../api/types.js';
import { doorCurl, doorSdkCall } from '../lib/firecrawl-snippets.js';
import { href } from '../lib/route.js';
import { scrollable } from '../lib/scrollable.js';
import { CopyButton } from './copy-button.js';
import { DocumentPreview, type FirecrawlDocument } from './document-preview.js';

/** A Firecrawl-door request as the log keeps it: the body the caller sent. */
export interface AskedRequest {
  door: 'firecrawl';
  version: 'v1' | 'v2';
  body: Record<string, unknown>;
  /** A batch's or crawl's page: that batch or crawl. */
  batchId?: string;
}

/** The door's request of a record; null for native requests and records logged before it. */
export function askedOf(detail: LogDetail): AskedRequest | null {
  const p = detail.params;
  if (p?.door !== 'firecrawl' || typeof p.body !== 'object' || p.body === null) return null;
  return p as unknown as AskedRequest;
}

/**
 * The request as it was made. A batch's or crawl's page was one scrape of its job: its
 * commands repeat that page alone, with the job's scrapeOptions, through POST /{v}/scrape.
 */
export function DoorRequest({ asked, source }: { asked: AskedRequest; source: string }) {
  const origin = window.location.origin;
  const curl = doorCurl(origin, asked.version, 'scrape', asked.body);
  const sdk = doorSdkCall(origin, asked.version, 'scrape', asked.body);
  const hidden = JSON.stringify(asked.body.headers ?? {}).includes('(hidden)');
  return (
    <>
      <h2>Request</h2>
      {asked.batchId && (
        <p data-testid="detail-job">
          A page of{' '}
          {source === 'crawl' ? (
            <a href={href.crawl(asked.batchId)}>crawl {asked.batchId}</a>
          ) : (
            <>batch {asked.batchId}</>
          )}
          , scraped with its <code>scrapeOptions</code>.
        </p>
      )}
      <p class="mono">
        POST /{asked.version}/{asked.batchId ? 'scrape (this page alone)' : 'scrape'}
      </p>
      <pre class="source" data-testid="detail-body" {...scrollable('Request body')}>
        {JSON.stringify(asked.body, null, 2)}
      </pre>
      {hidden && (
        <p class="muted small">Header values are not kept: put yours in place of (hidden).</p>
      )}
      <div class="row wrap">
        <CopyButton text={curl} label="Copy as curl" testId="copy-door-curl" />
        <CopyButton text={sdk} label="Copy as SDK call" testId="copy-door-sdk" />
      </div>
      <details class="curl-box">
        <summary>curl command and SDK call</summary>
        <pre class="source curl" data-testid="door-curl" {...scrollable('curl command')}>
          {curl}
        </pre>
        <pre class="source curl" data-testid="door-sdk" {...scrollable('SDK call')}>
          {sdk}
        </pre>
      </details>
    </>
  );
}

/** The kept Document as the caller got it, with the credits it was charged and its id. */
export function DoorResult({ client, id }: { client: ApiClient; id: string }) {
  const [doc, setDoc] = useState<FirecrawlDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    client.requestDocument(id).then(
      (d) => live && setDoc(d as FirecrawlDocument),
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [client, id]);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!doc) return <p aria-live="polite">Loading the result…</p>;
  const meta = doc.metadata ?? {};
  // Results kept before the Document was: the pipeline's form, its screenshot an object.
  const shown = typeof doc.screenshot === 'string' ? doc : { ...doc, screenshot: undefined };
  return (
    <>
      <dl class="facts">
        <div>
          <dt>Credits charged</dt>
          <dd data-testid="doc-credits">{meta.creditsUsed ?? '–'}</dd>
        </div>
        <div class="grow">
          <dt>Scrape id</dt>
          <dd class="break mono" data-testid="doc-scrape-id">
            {meta.scrapeId || '–'}
          </dd>
        </div>
        <div>
          <dt>Page status</dt>
          <dd>{meta.statusCode ?? '–'}</dd>
        </div>
      </dl>
      <DocumentPreview doc={shown} name="request-doc" />
    </>
  );
}
