/**
 * Pages whose content arrives after `load`, as issue 13 found them: one that fills itself
 * 200 ms after load, one that fetches its content once loaded, and one with 11 sections
 * that load only when they come into view (IntersectionObserver), each fetched from the
 * site. `addLateContentPages(site)` adds them to a fixture site:
 *
 * - `/late`          `<div id="late">` gets `filled late` and class `done` 200 ms after load
 * - `/late-fetch`    fetches `/late-data` (answered after 200 ms) at load, then shows it
 * - `/lazy`          LAZY_SECTIONS sections of SECTION_HEIGHT px; each shows `loaded <n>`
 *                    once it has been in view and `/lazy/section?n=<n>` answered
 */
import type { FixtureSite } from './fixture-site.js';

export const LAZY_SECTIONS = 11;
export const SECTION_HEIGHT = 500;

const LATE = `<!doctype html><html><head><title>late</title></head><body>
<div id="late"></div>
<script>
addEventListener('load', () => setTimeout(() => {
  const late = document.getElementById('late');
  late.textContent = 'filled late';
  late.className = 'done';
}, 200));
</script></body></html>`;

const LATE_FETCH = `<!doctype html><html><head><title>late fetch</title></head><body>
<div id="late"></div>
<script>
addEventListener('load', () => setTimeout(async () => {
  const text = await (await fetch('/late-data')).text();
  document.getElementById('late').textContent = text;
}, 0));
</script></body></html>`;

function lazyPage(): string {
  const sections = Array.from(
    { length: LAZY_SECTIONS },
    (_, i) => `<section data-n="${i + 1}">waiting ${i + 1}</section>`,
  ).join('\n');
  return `<!doctype html><html><head><title>lazy</title><style>
body { margin: 0 }
section { height: ${SECTION_HEIGHT}px; box-sizing: border-box; border-bottom: 2px solid #333 }
</style></head><body>
${sections}
<script>
const observer = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    observer.unobserve(entry.target);
    fetch('/lazy/section?n=' + entry.target.dataset.n)
      .then((response) => response.text())
      .then((text) => { entry.target.textContent = text; });
  }
});
for (const section of document.querySelectorAll('section')) observer.observe(section);
</script></body></html>`;
}

export function addLateContentPages(site: FixtureSite): void {
  site.html('/late', LATE);
  site.html('/late-fetch', LATE_FETCH);
  site.route('/late-data', (_req, res) => {
    const timer = setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('fetched late');
    }, 200);
    res.on('close', () => clearTimeout(timer));
  });
  site.html('/lazy', lazyPage());
  site.route('/lazy/section', (_req, res, url) => {
    // A little latency, as a real content API has: the text lands a moment after the fetch.
    const timer = setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`loaded ${url.searchParams.get('n')}`);
    }, 30);
    res.on('close', () => clearTimeout(timer));
  });
}
