import { useCallback, useEffect, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../../api/client.js';
import { formatTime } from '../../lib/format.js';
import { href } from '../../lib/route.js';
import { type CrawlSummary, crawlsApi } from './crawls-api.js';

/** How often the list refreshes while a crawl runs. */
const REFRESH_MS = 2000;

/** The account's crawls: start URL, id and time, progress (pages done of discovered, credits), cancel. */
export function CrawlList({ client }: { client: ApiClient }) {
  const [crawls, setCrawls] = useState<CrawlSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setCrawls(await crawlsApi.list(client));
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, [client]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  const cancel = async (id: string) => {
    try {
      await crawlsApi.cancel(client, id);
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section aria-labelledby="crawls-title">
      <h1 id="crawls-title">Crawls</h1>
      <p class="muted">
        Started with the Firecrawl API (<code>POST /v2/crawl</code>); kept until they expire.
      </p>
      {error && <p role="alert">{error}</p>}
      {crawls === null ? (
        <p aria-live="polite">Loading…</p>
      ) : crawls.length === 0 ? (
        <p>No crawls yet.</p>
      ) : (
        <div class="table-wrap">
          <table class="table" data-testid="crawl-list">
            <thead>
              <tr>
                <th scope="col">Site</th>
                <th scope="col">Started</th>
                <th scope="col">Status</th>
                <th scope="col">Pages</th>
                <th scope="col">Credits</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {crawls.map((crawl) => (
                <tr key={crawl.id} data-crawl-id={crawl.id}>
                  <td>
                    <a href={href.crawl(crawl.id)} class="break">
                      {crawl.url}
                    </a>
                    <div class="muted small mono" data-testid="crawl-id">
                      {crawl.id}
                    </div>
                  </td>
                  <td data-testid="crawl-started">{formatTime(crawl.createdAt)}</td>
                  <td>
                    {crawl.status}
                    {crawl.error && <div class="error">{crawl.error}</div>}
                  </td>
                  <td>
                    <progress max={Math.max(1, crawl.total)} value={crawl.completed} />{' '}
                    {crawl.completed} of {crawl.total}
                  </td>
                  <td>{crawl.creditsUsed}</td>
                  <td>
                    {crawl.status === 'scraping' && (
                      <button type="button" onClick={() => void cancel(crawl.id)}>
                        Cancel
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
