/**
 * What the crawl tests over `pagegrab serve` processes share: the nodes they start (killed
 * after the file if still running), the scrape options, waiting for a crawl to end, and the
 * paths a crawl of the fixture tree must give back.
 */
import { after } from 'node:test';
import type Firecrawl from '@mendable/firecrawl-js';
import type { CrawlSite } from '../../helpers/crawl-site.js';
import { until } from '../../helpers/until.js';
import { type ServeProcess, spawnServe } from '../../jobs/webhooks/serve-process.js';

const nodes: ServeProcess[] = [];
after(async () => {
  for (const node of nodes) if (node.child.exitCode === null) await node.kill();
});

/** `pagegrab serve` with `env`, killed when the test file ends if it still runs. */
export async function startNode(env: Record<string, string>): Promise<ServeProcess> {
  const node = await spawnServe(env);
  nodes.push(node);
  return node;
}

export const scrapeOptions = { formats: ['markdown' as const], maxAge: 0 };

/**
 * A status answer carries a page of up to 100 results: asked back to back, a node and
 * PostgreSQL spent their time answering it instead of crawling, so it is asked four times a
 * second.
 */
const STATUS_EVERY_MS = 250;

/** The crawl once it is no longer scraping (`guardMs` only guards against a hang). */
export async function finishedCrawl(fc: Firecrawl, id: string, guardMs: number) {
  await until(
    async () => (await fc.getCrawlStatus(id, { autoPaginate: false })).status !== 'scraping',
    guardMs,
    STATUS_EVERY_MS,
  );
  return fc.getCrawlStatus(id);
}

/** Every page of the tree (/old/1 redirects to /p/1: the same page). */
export const expectedPaths = (site: CrawlSite) => [...site.pagePaths()].sort();

/** Where each result's page was read (metadata.url: after redirects), sorted. */
export const landedPathsOf = (data: { metadata?: { url?: string } }[]) =>
  data.map((doc) => new URL(String(doc.metadata?.url)).pathname).sort();
