/**
 * Pages that load the way real sites do (issue 25), one loopback page per pattern, for the
 * render settle's tests, the Firecrawl door's engine choice and the benches. Each pattern has
 * a path, a `marker` that a complete answer holds, a `placeholder` that it must not hold, and
 * each page writes the moment its content is complete on `<html data-complete-at>` (its
 * `Date.now()`), so a bench can tell how long after that moment the answer came.
 *
 * Shells look like real ones (`<div id="app">Loading...</div>` and a script); the static and
 * server-rendered pages are text-rich. `addLoadingPatterns(site)` adds every page and the
 * endpoints they call under `/patterns/` to a fixture site; the endpoints answer after
 * `API_DELAY_MS`, as a real content API does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FixtureSite } from './fixture-site.js';

export type LoadingPatternName =
  | 'static'
  | 'server-rendered'
  | 'fetch-after-load'
  | 'fetch-chain'
  | 'timer'
  | 'modules'
  | 'xhr'
  | 'skeleton-list'
  | 'carousel'
  | 'beacons'
  | 'long-poll'
  | 'event-stream'
  | 'never-answers'
  | 'location-redirect'
  | 'meta-refresh';

export interface LoadingPattern {
  readonly name: LoadingPatternName;
  /** The page's path on the fixture site. */
  readonly path: string;
  /** Text a complete answer holds. */
  readonly marker: string;
  /** Text a complete answer does not hold (the shell's). */
  readonly placeholder: string;
  /** The content is in the server's HTML: a fetch without a browser is enough. */
  readonly serverRendered: boolean;
  /**
   * The page keeps a request open or repeats requests or timers for as long as it is open:
   * a render must still end, and not at the caller's timeout.
   */
  readonly keepsBusy: boolean;
  /** Where a client-side move lands (the answer's final path), when the page moves. */
  readonly landsOn?: string;
}

/** The attribute on `<html>` holding the page's `Date.now()` when its content was complete. */
export const COMPLETE_ATTRIBUTE = 'data-complete-at';
/** How long each content endpoint takes to answer. */
export const API_DELAY_MS = 150;
/** The render-on-a-timer page fills itself this long after load. */
export const TIMER_DELAY_MS = 500;
/** Steps of the fetch chain, each API_DELAY_MS / 2. */
export const CHAIN_STEPS = 3;
export const SKELETON_ITEMS = 8;

const SHELL = 'Loading...';
const LANDING = '/patterns/landing';

export const LOADING_PATTERNS: readonly LoadingPattern[] = [
  pattern('static', 'A static page about tide pools', { serverRendered: true }),
  pattern('server-rendered', 'Server rendered article on mountain huts', { serverRendered: true }),
  pattern('fetch-after-load', 'Article text fetched after load'),
  pattern('fetch-chain', `Chained content after ${CHAIN_STEPS} fetches`),
  pattern('timer', 'Content rendered on a timer'),
  pattern('modules', 'Content from a dynamic import chunk'),
  pattern('xhr', 'Content from an old XMLHttpRequest'),
  pattern('skeleton-list', `Skeleton item ${SKELETON_ITEMS} of ${SKELETON_ITEMS}`, {
    placeholder: 'Loading items',
  }),
  pattern('carousel', 'A page with a rotating carousel', {
    serverRendered: true,
    keepsBusy: true,
  }),
  pattern('beacons', 'Content next to repeating beacons', { keepsBusy: true }),
  pattern('long-poll', 'Content next to a long poll', { keepsBusy: true }),
  pattern('event-stream', 'Content next to an event stream', { keepsBusy: true }),
  pattern('never-answers', 'Content next to a request that never answers', { keepsBusy: true }),
  pattern('location-redirect', 'Landed after a client-side move', { landsOn: LANDING }),
  pattern('meta-refresh', 'Landed after a client-side move', { landsOn: LANDING }),
];

export function loadingPattern(name: LoadingPatternName): LoadingPattern {
  const found = LOADING_PATTERNS.find((p) => p.name === name);
  if (!found) throw new Error(`no loading pattern ${name}`);
  return found;
}

/** The page's `data-complete-at`, or null when the answer's HTML has none. */
export function completeAtOf(html: string): number | null {
  const match = new RegExp(`${COMPLETE_ATTRIBUTE}="(\\d+)"`).exec(html);
  return match ? Number(match[1]) : null;
}

function pattern(
  name: LoadingPatternName,
  marker: string,
  more: Partial<Omit<LoadingPattern, 'name' | 'marker'>> = {},
): LoadingPattern {
  return {
    name,
    path: `/patterns/${name}`,
    marker,
    placeholder: SHELL,
    serverRendered: false,
    keepsBusy: false,
    ...more,
  };
}

const marker = (name: LoadingPatternName) => loadingPattern(name).marker;

/** Sets `data-complete-at`; every page's script has it. */
const COMPLETE = `function complete() { document.documentElement.setAttribute('${COMPLETE_ATTRIBUTE}', String(Date.now())); }`;

const PROSE = [
  'Tide pools form where the sea leaves water behind in hollows of rock at low tide.',
  'Anemones, limpets and small crabs live there between two worlds, wet twice a day.',
  'Each pool is a small sea of its own, warmer than the ocean at noon and colder at night.',
  'Walkers are asked to step on bare rock only and to turn every stone back the way it lay.',
  'The best hours are the two around the lowest tide, when the outer pools come into reach.',
];

function prose(title: string): string {
  return PROSE.map((line, i) => `<p>${title}, part ${i + 1}. ${line}</p>`).join('\n');
}

function shell(title: string, script: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}
</head><body><div id="app">${SHELL}</div>
<script>${COMPLETE}
const app = document.getElementById('app');
${script}
</script></body></html>`;
}

function textRich(title: string, body: string, tail = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><main><h1>${title}</h1>${body}
${prose(title)}
</main>
<script>${COMPLETE} complete();</script>${tail}
</body></html>`;
}

const PAGES: Record<LoadingPatternName, string> = {
  static: textRich(marker('static'), '<nav><a href="/patterns/server-rendered">More</a></nav>'),
  'server-rendered': textRich(
    marker('server-rendered'),
    '<button id="like">Like</button>',
    `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({
      props: { pageProps: { title: marker('server-rendered'), paragraphs: PROSE } },
    })}</script>
<script type="module" src="/patterns/hydrate.js"></script>`,
  ),
  'fetch-after-load': shell(
    'fetch after load',
    `addEventListener('load', async () => {
  const text = await (await fetch('/patterns/api/text?say=' + encodeURIComponent(${JSON.stringify(marker('fetch-after-load'))}))).text();
  app.innerHTML = '<article><h1>' + text + '</h1></article>';
  complete();
});`,
  ),
  'fetch-chain': shell(
    'fetch chain',
    `addEventListener('load', async () => {
  let step = { next: 1 };
  while (step.next) step = await (await fetch('/patterns/api/chain?step=' + step.next)).json();
  app.textContent = step.text;
  complete();
});`,
  ),
  timer: shell(
    'timer',
    `addEventListener('load', () => setTimeout(() => {
  app.innerHTML = '<p>${marker('timer')}</p>';
  complete();
}, ${TIMER_DELAY_MS}));`,
  ),
  modules: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>modules</title>
<script type="module" src="/patterns/modules/main.js"></script></head>
<body><div id="app">${SHELL}</div></body></html>`,
  xhr: shell(
    'xhr',
    `const xhr = new XMLHttpRequest();
xhr.open('GET', '/patterns/api/text?say=' + encodeURIComponent(${JSON.stringify(marker('xhr'))}));
xhr.onload = () => { app.textContent = xhr.responseText; complete(); };
xhr.send();`,
  ),
  'skeleton-list': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>skeleton list</title>
<style>.skeleton li { height: 1em; background: #eee; margin: 4px }</style></head>
<body><h1>Items</h1><p id="status">Loading items</p>
<ul id="list" class="skeleton">${'<li class="skeleton-item"></li>'.repeat(5)}</ul>
<script>${COMPLETE}
fetch('/patterns/api/items').then((r) => r.json()).then((items) => {
  const list = document.getElementById('list');
  list.className = '';
  list.replaceChildren(...items.map((item) => Object.assign(document.createElement('li'), { textContent: item })));
  document.getElementById('status').remove();
  complete();
});
</script></body></html>`,
  carousel: textRich(
    marker('carousel'),
    '<div id="slide">Slide 1</div>',
    `<script>let n = 1; setInterval(() => { n += 1; document.getElementById('slide').textContent = 'Slide ' + n; }, 120);</script>`,
  ),
  beacons: shell(
    'beacons',
    `fetch('/patterns/api/text?say=' + encodeURIComponent(${JSON.stringify(marker('beacons'))}))
  .then((r) => r.text()).then((text) => { app.textContent = text; complete(); });
setInterval(() => navigator.sendBeacon('/patterns/api/beacon', 'seen'), 150);
const poll = () => fetch('/patterns/api/poll?t=' + Date.now()).then(() => setTimeout(poll, 100));
poll();`,
  ),
  'long-poll': shell(
    'long poll',
    `fetch('/patterns/api/text?say=' + encodeURIComponent(${JSON.stringify(marker('long-poll'))}))
  .then((r) => r.text()).then((text) => { app.textContent = text; complete(); });
const listen = () => fetch('/patterns/api/hold').then(listen, () => setTimeout(listen, 1000));
listen();`,
  ),
  'event-stream': shell(
    'event stream',
    `fetch('/patterns/api/text?say=' + encodeURIComponent(${JSON.stringify(marker('event-stream'))}))
  .then((r) => r.text()).then((text) => { app.textContent = text; complete(); });
new EventSource('/patterns/api/events').onmessage = (event) => { document.title = 'tick ' + event.data; };`,
  ),
  'never-answers': shell(
    'never answers',
    `fetch('/patterns/api/text?say=' + encodeURIComponent(${JSON.stringify(marker('never-answers'))}))
  .then((r) => r.text()).then((text) => { app.textContent = text; complete(); });
fetch('/patterns/api/hold').catch(() => {});`,
  ),
  'location-redirect': shell(
    'location redirect',
    `addEventListener('load', () => setTimeout(() => { location.href = '${LANDING}?from=location'; }, 100));`,
  ),
  'meta-refresh': shell(
    'meta refresh',
    '',
    `<meta http-equiv="refresh" content="0.2;url=${LANDING}?from=meta">`,
  ),
};

const MODULE_MAIN = `const { render } = await import('/patterns/modules/chunk.js');
render(document.getElementById('app'));`;
const MODULE_CHUNK = `export function render(app) {
  app.innerHTML = '<section><h2>${marker('modules')}</h2></section>';
  document.documentElement.setAttribute('${COMPLETE_ATTRIBUTE}', String(Date.now()));
}`;
const HYDRATE = `const data = JSON.parse(document.getElementById('__NEXT_DATA__').textContent);
document.getElementById('like').addEventListener('click', () => {});
document.documentElement.dataset.hydrated = String(data.props.pageProps.paragraphs.length);`;

/** Answers after `ms`, unless the client went away first. */
function later(res: ServerResponse, ms: number, type: string, body: string): void {
  const timer = setTimeout(() => {
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  }, ms);
  res.on('close', () => clearTimeout(timer));
}

/** Never answers: holds the request until the client goes away. */
function hold(_req: IncomingMessage, res: ServerResponse): void {
  res.on('close', () => {});
}

export function addLoadingPatterns(site: FixtureSite): void {
  for (const p of LOADING_PATTERNS) site.html(p.path, PAGES[p.name]);
  site.html(
    LANDING,
    textRich(marker('location-redirect'), '<p>The page moved here on its own.</p>'),
  );
  const js = 'text/javascript';
  site.route('/patterns/hydrate.js', (_req, res) => later(res, 30, js, HYDRATE));
  site.route('/patterns/modules/main.js', (_req, res) => later(res, 30, js, MODULE_MAIN));
  site.route('/patterns/modules/chunk.js', (_req, res) =>
    later(res, API_DELAY_MS, js, MODULE_CHUNK),
  );
  site.route('/patterns/api/text', (_req, res, url) =>
    later(res, API_DELAY_MS, 'text/plain', url.searchParams.get('say') ?? ''),
  );
  site.route('/patterns/api/chain', (_req, res, url) => {
    const step = Number(url.searchParams.get('step'));
    const body = step < CHAIN_STEPS ? { next: step + 1 } : { next: 0, text: marker('fetch-chain') };
    later(res, API_DELAY_MS / 2, 'application/json', JSON.stringify(body));
  });
  site.route('/patterns/api/items', (_req, res) => {
    const items = Array.from(
      { length: SKELETON_ITEMS },
      (_, i) => `Skeleton item ${i + 1} of ${SKELETON_ITEMS}`,
    );
    later(res, API_DELAY_MS, 'application/json', JSON.stringify(items));
  });
  site.route('/patterns/api/beacon', (_req, res) => {
    res.writeHead(204);
    res.end();
  });
  site.route('/patterns/api/poll', (_req, res) => later(res, 20, 'application/json', '{}'));
  site.route('/patterns/api/hold', hold);
  site.route('/patterns/api/events', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    let n = 0;
    const tick = setInterval(() => res.write(`data: ${++n}\n\n`), 200);
    res.on('close', () => clearInterval(tick));
  });
}
