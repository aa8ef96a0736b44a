import type { CrawlErrors } from './crawls-api.js';

/** A crawl's failed pages (with Firecrawl's code and the text) and its robots-blocked URLs. */
export function CrawlProblems({ problems }: { problems: CrawlErrors }) {
  const { errors, robotsBlocked } = problems;
  return (
    <>
      <h2>Failed pages ({errors.length})</h2>
      {errors.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul data-testid="crawl-errors">
          {errors.map((e) => (
            <li key={e.id}>
              <span class="break">{e.url}</span>
              {e.code && <span class="mono"> {e.code}</span>}: <span class="error">{e.error}</span>
            </li>
          ))}
        </ul>
      )}
      <h2>Blocked by robots.txt ({robotsBlocked.length})</h2>
      {robotsBlocked.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul data-testid="crawl-robots-blocked">
          {robotsBlocked.map((url) => (
            <li key={url} class="break">
              {url}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
