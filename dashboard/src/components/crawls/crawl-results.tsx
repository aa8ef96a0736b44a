import { useEffect, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../../api/client.js';
import { href } from '../../lib/route.js';
import { scrollable } from '../../lib/scrollable.js';
import { type CrawlStatus, crawlsApi } from './crawls-api.js';

const PER_PAGE = 20;
/** Characters of each page's Markdown shown. */
const PREVIEW = 400;

/** One crawl's results, a page of pages at a time, with their Markdown's beginning. */
export function CrawlResults({ client, id }: { client: ApiClient; id: string }) {
  const [skip, setSkip] = useState(0);
  const [status, setStatus] = useState<CrawlStatus | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    crawlsApi
      .status(client, id, skip, PER_PAGE)
      .then((answer) => {
        if (!live) return;
        setStatus(answer);
        setError(null);
      })
      .catch((err: unknown) => {
        if (live) setError(errorText(err));
      });
    return () => {
      live = false;
    };
  }, [client, id, skip]);

  return (
    <section aria-labelledby="crawl-title">
      <p>
        <a href={href.crawls()}>← Crawls</a>
      </p>
      <h1 id="crawl-title">Crawl results</h1>
      {error && <p role="alert">{error}</p>}
      {status && (
        <>
          <p data-testid="crawl-progress">
            {status.status}: {status.completed} of {status.total} pages, {status.creditsUsed}{' '}
            credits{status.error ? ` (${status.error})` : ''}
          </p>
          <ol start={skip + 1} data-testid="crawl-pages">
            {status.data.map((page) => (
              <li key={page.metadata?.sourceURL}>
                <a href={page.metadata?.url ?? page.metadata?.sourceURL} rel="noreferrer">
                  {page.metadata?.title || page.metadata?.sourceURL}
                </a>{' '}
                <span class="muted">{page.metadata?.statusCode}</span>
                {page.markdown && (
                  // A long line (a page's headline, a link) scrolls sideways on a phone: the
                  // region must be reachable from the keyboard.
                  <pre class="preview" {...scrollable(`Markdown of ${page.metadata?.sourceURL}`)}>
                    {page.markdown.slice(0, PREVIEW)}
                  </pre>
                )}
              </li>
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
