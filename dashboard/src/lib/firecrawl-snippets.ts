/**
 * A Firecrawl-door request as a command or a program to paste: curl, or the firecrawl-js SDK
 * pointed at this service. The key is the environment variable, never the real one.
 */

/** What the door calls take: POST /{version}/{endpoint} with a JSON body. */
export type DoorCall = 'scrape' | 'crawl' | 'map' | 'batch/scrape';

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

export function doorCurl(
  origin: string,
  version: string,
  call: DoorCall,
  body: Record<string, unknown>,
): string {
  return [
    `curl -X POST ${shellQuote(`${origin}/${version}/${call}`)}`,
    `-H "Authorization: Bearer $PAGEGRAB_API_KEY"`,
    `-H 'Content-Type: application/json'`,
    `-d ${shellQuote(JSON.stringify(body))}`,
  ].join(' \\\n  ');
}

/** The SDK's method per call and version (firecrawl-js 4: `Firecrawl`, its v1 as `.v1`). */
const METHOD: Record<DoorCall, { v2: string; v1: string }> = {
  scrape: { v2: 'scrape', v1: 'v1.scrapeUrl' },
  crawl: { v2: 'crawl', v1: 'v1.crawlUrl' },
  map: { v2: 'map', v1: 'v1.mapUrl' },
  'batch/scrape': { v2: 'batchScrape', v1: 'v1.batchScrapeUrls' },
};

export function doorSdkCall(
  origin: string,
  version: string,
  call: DoorCall,
  body: Record<string, unknown>,
): string {
  const { url, urls, ...options } = body;
  const target = JSON.stringify(call === 'batch/scrape' ? urls : url);
  const method = METHOD[call][version === 'v1' ? 'v1' : 'v2'];
  const rest = Object.keys(options).length > 0 ? `, ${JSON.stringify(options, null, 2)}` : '';
  return [
    "import Firecrawl from '@mendable/firecrawl-js';",
    '',
    'const firecrawl = new Firecrawl({',
    '  apiKey: process.env.PAGEGRAB_API_KEY,',
    `  apiUrl: ${JSON.stringify(origin)},`,
    '});',
    `const result = await firecrawl.${method}(${target}${rest});`,
  ].join('\n');
}
