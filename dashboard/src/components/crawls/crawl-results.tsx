import { useEffect, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../../api/client.js';
import { formatTime } from '../../lib/format.js';
import { href } from '../../lib/route.js';
import { DocumentPreview } from '../document-preview.js';
import { CrawlExport } from './crawl-export-buttons.js';
import { CrawlProblems } from './crawl-problems.js';
import {
  type CrawlErrors,
  type CrawlPage,
  type CrawlStatus,
  type CrawlSummary,
  crawlsApi,
} from './crawls-api.js';

const PER_PAGE = 20;
/** How often a running crawl's detail asks for its progress. */
const POLL_MS = 1000;

/**
 * One crawl: its progress, refreshed while it runs, Cancel, its failed and robots-blocked
 * pages, its results a page at a time with each page's Document, and the export.
 */
export function CrawlResults({ client, id }: { client: ApiClient; id: string }) {
  const [skip, setSkip] = useState(0);
  const [status, setStatus] = useState<CrawlStatus | null>(null);
  const [problems, setProblems] = useState<CrawlErrors | null>(null);
  const [summary, setSummary] = useState<CrawlSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Bumped to read the crawl again at once (after Cancel).
  const [reload, setReload] = useState(0);

  useEffect(() => {
    let live = true;
    crawlsApi.list(client).then(
      (list) => live && setSummary(list.find((c) => c.id === id) ?? null),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client, id]);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const [answer, errors] = await Promise.all([
          crawlsApi.status(client, id, skip, PER_PAGE),
          crawlsApi.errors(client, id),
        ]);
        if (!live) return;
        setStatus(answer);
        setProblems(errors);
        setError(null);
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
  }, [client, id, skip, reload]);

  const cancel = async () => {
    try {
      await crawlsApi.cancel(client, id);
      setReload((n) => n + 1);
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section aria-labelledby="crawl-title">
      <p class="crumbs">
        <a href={href.crawls()}>← Crawls</a>
      </p>
      <h1 id="crawl-title" class="break">
        Crawl of {summary?.url ?? 'a site'}
      </h1>
      <dl class="facts">
        <div>
          <dt>Started</dt>
          <dd data-testid="crawl-started">{summary ? formatTime(summary.createdAt) : '–'}</dd>
        </div>
        <div class="grow">
          <dt>Crawl id</dt>
          <dd class="break mono">{id}</dd>
        </div>
      </dl>
      {error && <p role="alert">{error}</p>}
      {status && (
        <>
          <div class="row wrap">
            <progress
              max={Math.max(1, status.total)}
              value={status.completed}
              aria-label="Pages ended"
            />
            <p data-testid="crawl-progress">
              {status.status}: {status.completed} of {status.total} pages, {status.creditsUsed}{' '}
              credits{status.error ? ` (${status.error})` : ''}
            </p>
            {status.status === 'scraping' && (
              <button type="button" onClick={() => void cancel()} data-testid="crawl-cancel">
                Cancel crawl
              </button>
            )}
          </div>
          <CrawlExport client={client} id={id} />
          {problems && <CrawlProblems problems={problems} />}
          <h2>Pages</h2>
          {status.data.length === 0 && <p class="muted">No page has ended yet.</p>}
          <ol start={skip + 1} data-testid="crawl-pages" class="crawl-pages">
            {status.data.map((page, i) => (
              <PageItem key={page.metadata?.sourceURL ?? i} page={page} n={skip + i} />
            ))}
          </ol>
          <nav aria-label="Result pages">
            <button
              type="button"
              disabled={skip === 0}
              onClick={() => setSkip(Math.max(0, skip - PER_PAGE))}
            >
              Previous
            </button>{' '}
            <button type="button" disabled={!status.next} onClick={() => setSkip(skip + PER_PAGE)}>
              Next
            </button>
          </nav>
        </>
      )}
    </section>
  );
}

export function PageItem({ page, n }: { page: CrawlPage; n: number }) {
  const [open, setOpen] = useState(false);
  const url = page.metadata?.url ?? page.metadata?.sourceURL ?? '';
  return (
    <li data-testid="crawl-page">
      <a href={url} rel="noreferrer" class="break">
        {page.metadata?.title || page.metadata?.sourceURL}
      </a>{' '}
      <span class="muted">{page.metadata?.statusCode}</span>{' '}
      <button type="button" class="link" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide' : 'Show'} result
      </button>
      {open && <DocumentPreview doc={page} name={`crawl-page-${n}`} />}
    </li>
  );
}
