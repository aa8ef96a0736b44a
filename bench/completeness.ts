/**
 * Whether a caller who knows nothing of a page's loading pattern gets the whole page (issue
 * 25): for every page of test/helpers/loading-patterns.ts, the share of answers that hold the
 * page's marker and not its placeholder, for
 *   - the native render default: GET /api/scraper?render=true (nothing else), HTML answer;
 *   - the door's default: POST /v2/scrape {url, formats: ['markdown']}, its markdown;
 * and the door's latency on the static page, each build on its own. The built service
 * (dist/: run `node scripts/build.mjs` first) runs as a child process, and with --peer-dist
 * another build's dist/ (e.g. /work/main/dist) runs beside it: both answer the same pages,
 * and the latency rounds alternate which build goes first.
 *   node --import tsx bench/completeness.ts [--peer-dist /work/main/dist] [--peer-label main]
 *     [--rounds 3] [--static 40]
 * The loopback site runs in this process. Latency: --static sequential door scrapes of the
 * static page per round (maxAge 0: no cache), the median over all rounds.
 */
import { parseArgs } from 'node:util';
import { startFixtureSite } from '../test/helpers/fixture-site.js';
import { addLoadingPatterns, LOADING_PATTERNS } from '../test/helpers/loading-patterns.js';
import { type ChildServer, startChildServer } from './lib/child-server.js';

const { values } = parseArgs({
  options: {
    'peer-dist': { type: 'string' },
    'peer-label': { type: 'string', default: 'peer build' },
    rounds: { type: 'string', default: '3' },
    static: { type: 'string', default: '40' },
  },
});
const rounds = Math.max(1, Number(values.rounds));
const staticScrapes = Math.max(1, Number(values.static));

interface Build {
  label: string;
  server: ChildServer;
}

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};

async function native(build: Build, url: string): Promise<string> {
  const query = new URLSearchParams({ url, render: 'true' });
  const answer = await fetch(`${build.server.url}/api/scraper?${query}`, {
    headers: { 'x-api-key': build.server.apiKey ?? '' },
  });
  const text = await answer.text();
  return answer.status === 200 ? text : `(${answer.status}) ${text}`;
}

async function door(
  build: Build,
  url: string,
): Promise<{ markdown: string; engine: string; ms: number }> {
  const started = performance.now();
  const answer = await fetch(`${build.server.url}/v2/scrape`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${build.server.apiKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ url, formats: ['markdown'], maxAge: 0 }),
  });
  const body = (await answer.json()) as {
    data?: { markdown?: string; metadata?: { engine?: string } };
    error?: string;
  };
  return {
    markdown: body.data?.markdown ?? `(${answer.status}) ${body.error}`,
    engine: body.data?.metadata?.engine ?? '-',
    ms: performance.now() - started,
  };
}

const site = await startFixtureSite();
addLoadingPatterns(site);
const builds: Build[] = [];
try {
  builds.push({ label: 'this build', server: await startChildServer('service') });
  if (values['peer-dist']) {
    builds.push({
      label: values['peer-label'] as string,
      server: await startChildServer('service', [], { BENCH_DIST: values['peer-dist'] }),
    });
  }
  // Warm each browser pool and the output workers before anything is measured.
  for (const build of builds) {
    for (let i = 0; i < 4; i++) await door(build, site.url('/patterns/static'));
    await native(build, site.url('/patterns/static'));
  }

  for (const build of builds) {
    console.log(`\n${build.label}`);
    console.log('pattern            native  door   door engine  door ms');
    let nativeWhole = 0;
    let doorWhole = 0;
    for (const pattern of LOADING_PATTERNS) {
      const whole = (text: string) =>
        text.includes(pattern.marker) && !text.includes(pattern.placeholder);
      const html = await native(build, site.url(pattern.path));
      const answer = await door(build, site.url(pattern.path));
      const n = whole(html);
      const d = whole(answer.markdown);
      nativeWhole += n ? 1 : 0;
      doorWhole += d ? 1 : 0;
      console.log(
        `${pattern.name.padEnd(18)} ${String(n).padEnd(7)} ${String(d).padEnd(6)} ${answer.engine.padEnd(12)} ${answer.ms.toFixed(0)}`,
      );
    }
    const all = LOADING_PATTERNS.length;
    console.log(
      `complete: native render default ${nativeWhole}/${all}, door default ${doorWhole}/${all}`,
    );
  }

  const latencies = new Map<string, number[]>(builds.map((b) => [b.label, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const build of order) {
      for (let i = 0; i < staticScrapes; i++) {
        const started = performance.now();
        await door(build, site.url('/patterns/static'));
        latencies.get(build.label)?.push(performance.now() - started);
      }
    }
  }
  console.log(`\nstatic page through POST /v2/scrape, ${rounds} x ${staticScrapes} sequential:`);
  const medians = builds.map((b) => median(latencies.get(b.label) ?? []));
  builds.forEach((b, i) => {
    console.log(`  ${b.label}: p50 ${(medians[i] ?? Number.NaN).toFixed(1)} ms`);
  });
  if (medians.length === 2) {
    console.log(`  ratio this/peer: ${((medians[0] ?? 0) / (medians[1] ?? 1)).toFixed(2)}`);
  }
} finally {
  await Promise.all(builds.map((b) => b.server.stop()));
  await site.close();
}
