/**
 * How long does a render=false block_ads fetch of a big page hold the service's event loop?
 *
 *   node --import tsx bench/static-blocker-stall.ts [--mb 5] [--repeat 3]
 *
 * Starts the real service in this process (temp DATA_DIR, filters from build/filters) and a
 * loopback fixture site serving a synthetic page of about --mb MB (posts with classes, ids,
 * links, ad-like containers and ad-network script/img URLs: the URLs are only text, nothing is
 * fetched from them). After one untimed warm-up it asks for the page with block_ads=true
 * --repeat times and reports, per run, the longest event-loop stall (perf_hooks
 * monitorEventLoopDelay max, and a 5 ms setInterval probe's longest gap) and the answer time.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startFixtureSite } from '../test/helpers/fixture-site.js';
import { startService } from '../test/helpers/service.js';

const { values } = parseArgs({
  options: { mb: { type: 'string', default: '5' }, repeat: { type: 'string', default: '3' } },
});
const targetBytes = Math.max(0.1, Number(values.mb) || 5) * 1024 * 1024;
const repeat = Math.max(1, Number(values.repeat) || 3);

function bigPage(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const post =
      `<div class="post post-${i % 50}" id="p${i}"><h3>Post ${i}</h3>` +
      `<p>Some text with <b>bold</b> and <a href="/t/${i}">a link</a>.</p>` +
      (i % 10 === 0
        ? `<div class="ad-banner adsbygoogle"><script src="https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js"></script></div>`
        : '') +
      (i % 25 === 0 ? `<img src="https://ad.doubleclick.net/ddm/ad/${i}.gif">` : '') +
      '</div>';
    parts.push(post);
    size += post.length;
  }
  return `<!doctype html><html><head><title>Big</title></head><body><main>${parts.join('')}</main></body></html>`;
}

const site = await startFixtureSite();
const html = bigPage(targetBytes);
site.html('/big-ads', html);
const service = await startService({ credits: 100_000 });

async function scrape(path: string): Promise<{ status: number; bytes: number }> {
  const query = new URLSearchParams({ url: site.url(path), block_ads: 'true' });
  const response = await fetch(`${service.baseUrl}/api/scraper?${query}`, {
    headers: { 'X-API-Key': service.apiKey },
  });
  const body = await response.arrayBuffer();
  return { status: response.status, bytes: body.byteLength };
}

try {
  await scrape('/big-ads'); // warm-up: filter caches, workers booted
  console.log(`page ${(html.length / 1024 / 1024).toFixed(2)} MB, block_ads=true, render=false`);
  for (let run = 1; run <= repeat; run++) {
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    let last = performance.now();
    let longestGap = 0;
    const probe = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    histogram.enable();
    const started = performance.now();
    const answer = await scrape('/big-ads');
    const took = performance.now() - started;
    histogram.disable();
    clearInterval(probe);
    console.log(
      `run ${run}: status ${answer.status}, ${(answer.bytes / 1024 / 1024).toFixed(2)} MB out, ` +
        `answer ${took.toFixed(0)} ms, loop delay max ${(histogram.max / 1e6).toFixed(0)} ms, ` +
        `probe longest gap ${longestGap.toFixed(0)} ms`,
    );
  }
} finally {
  await service.close();
  await site.close();
}
