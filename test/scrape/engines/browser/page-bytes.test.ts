/**
 * MAX_BODY_BYTES on a render counts every target of the page, not only its main frame: a
 * cross-site (out-of-process) iframe and a dedicated worker's fetch are counted too, and
 * the HTML a script builds is bounded as well. The address guard is off here (private
 * networks allowed), so the guard proxy's own bound on the wire plays no part: what fails
 * these renders is the decoded count from CDP and the HTML's length.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { renderPlan } from './plan-fixture.js';

const LIMIT = 1024 * 1024;
const TOO_LARGE = `Failed to fetch the page: response body exceeds ${LIMIT} bytes`;

let site: FixtureSite;
/** Answers the held script: set while it waits, called when the worker's fetch ends. */
let workerFetchEnded: (() => void) | undefined;
const engine = createBrowserEngine({
  allowPrivateNetworks: true,
  maxConcurrentPages: 1,
  maxBodyBytes: LIMIT,
});

/** 16 MiB of text, as fast as the reader takes it. */
function large(res: ServerResponse, type: string): void {
  res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let sent = 0;
  const more = (): void => {
    while (sent < 16 * LIMIT && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    res.end();
  };
  more();
}

before(async () => {
  site = await startFixtureSite();
  site.route('/large.html', (_req, res) => large(res, 'text/html'));
  site.route('/large.txt', (_req, res) => {
    res.once('close', () => workerFetchEnded?.());
    large(res, 'text/plain');
  });
  // Held until the worker's fetch has ended (or 20 s): the page's load waits for this
  // parser-blocking script, so the render cannot finish before the worker's bytes are in.
  site.route('/held.js', (_req, res) => {
    const answer = (): void => {
      clearTimeout(guard);
      if (!res.destroyed) res.end('/* held */');
    };
    const guard = setTimeout(answer, 20_000);
    workerFetchEnded = answer;
    res.once('close', () => clearTimeout(guard));
    res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
  });
  // localhost is another site than 127.0.0.1: Chromium puts the frame in its own process.
  site.html(
    '/with-frame',
    `<p>outer</p><iframe src="http://localhost:${site.port}/large.html"></iframe>`,
  );
  site.route('/worker.js', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    res.end(`fetch('/large.txt').then((r) => r.text()).then((t) => postMessage(t.length));`);
  });
  // The load event does not wait for a worker: the held script holds the page until it did.
  site.html(
    '/with-worker',
    `<p>worker</p><script>new Worker('/worker.js');</script><script src="/held.js"></script>`,
  );
  site.html(
    '/builds-large-html',
    `<p>small</p><script>document.body.append('b'.repeat(${2 * LIMIT}));</script>`,
  );
  site.html('/small', '<!doctype html><title>small</title><p>small</p>');
});
after(async () => {
  await engine.close();
  await site.close();
});

async function renderError(path: string): Promise<string> {
  try {
    const snapshot = await engine.render(renderPlan(site.url(path)));
    return `rendered with status ${snapshot.status}`;
  } catch (error) {
    return (error as Error).message;
  }
}

test("a cross-site iframe's document counts toward the page's bytes", async () => {
  assert.equal(await renderError('/with-frame'), TOO_LARGE);
});

test("a dedicated worker's fetch counts toward the page's bytes", async () => {
  assert.equal(await renderError('/with-worker'), TOO_LARGE);
});

test('HTML a script built past the limit is not returned', async () => {
  assert.equal(await renderError('/builds-large-html'), TOO_LARGE);
});

test('a page within the limit renders after those', async () => {
  const snapshot = await engine.render(renderPlan(site.url('/small')));
  assert.equal(snapshot.status, 200);
  assert.match(snapshot.html, /<p>small<\/p>/);
});
