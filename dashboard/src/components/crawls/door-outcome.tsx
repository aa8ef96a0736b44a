import { useEffect, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../../api/client.js';
import { href } from '../../lib/route.js';
import { DocumentPreview, type FirecrawlDocument } from '../document-preview.js';
import { PageItem } from './crawl-results.js';
import type { CrawlStatus } from './crawls-api.js';

/** What a door call answered, by what was asked. */
export interface DoorResult {
  kind: 'scrape' | 'crawl' | 'map' | 'batch';
  answer: Record<string, unknown>;
}

/** How often a started crawl or batch is asked for its progress. */
const POLL_MS = 1000;

export function DoorOutcome({ client, result }: { client: ApiClient; result: DoorResult }) {
  const { kind, answer } = result;
  return (
    <section class="preview" aria-label="Result" data-testid="door-result" data-kind={kind}>
      {kind === 'scrape' && <ScrapeAnswer doc={answer.data as FirecrawlDocument} />}
      {kind === 'map' && <MapAnswer links={answer.links as MapLink[]} />}
      {kind === 'crawl' && (
        <>
          <p>
            Crawl <a href={href.crawl(String(answer.id))}>{String(answer.id)}</a> started.
          </p>
          <JobProgress
            client={client}
            path={`/v2/crawl/${encodeURIComponent(String(answer.id))}`}
          />
        </>
      )}
      {kind === 'batch' && (
        <>
          <p class="mono break">Batch {String(answer.id)} started.</p>
          <JobProgress
            client={client}
            path={`/v2/batch/scrape/${encodeURIComponent(String(answer.id))}`}
          />
        </>
      )}
    </section>
  );
}

function ScrapeAnswer({ doc }: { doc: FirecrawlDocument }) {
  const meta = doc.metadata ?? {};
  return (
    <>
      <dl class="meta-line">
        <div>
          <dt>Credits used</dt>
          <dd data-testid="door-credits">{meta.creditsUsed ?? '–'}</dd>
        </div>
        <div>
          <dt>Target status</dt>
          <dd>{meta.statusCode ?? '–'}</dd>
        </div>
      </dl>
      {meta.scrapeId && (
        <p>
          <a class="button" href={href.request(meta.scrapeId)}>
            In the request log
          </a>
        </p>
      )}
      <DocumentPreview doc={doc} name="door-scrape" />
    </>
  );
}

type MapLink = { url: string; title?: string } | string;

function MapAnswer({ links }: { links: MapLink[] }) {
  return (
    <>
      <p data-testid="door-map-count">{links.length} links</p>
      <ul data-testid="door-map-links" class="break">
        {links.map((link) => {
          const url = typeof link === 'string' ? link : link.url;
          return (
            <li key={url}>
              {url}
              {typeof link !== 'string' && link.title && <span class="muted"> {link.title}</span>}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** A crawl's or batch's progress until it ends, then its first results. */
function JobProgress({ client, path }: { client: ApiClient; path: string }) {
  const [status, setStatus] = useState<CrawlStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const answer = await client.firecrawl<CrawlStatus>('GET', path);
        if (!live) return;
        setStatus(answer);
        if (answer.status === 'scraping') timer = setTimeout(load, POLL_MS);
      } catch (err) {
        if (live) setError(errorText(err));
      }
    };
    void load();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, path]);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!status) return <p class="muted">Waiting for its first answer…</p>;
  return (
    <>
      <p data-testid="door-job-status">
        {status.status}: {status.completed} of {status.total} pages, {status.creditsUsed} credits
      </p>
      <ol data-testid="door-job-pages">
        {status.data.map((page, i) => (
          <PageItem key={page.metadata?.sourceURL ?? i} page={page} n={i} />
        ))}
      </ol>
    </>
  );
}
