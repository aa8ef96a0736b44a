// The bare Markdown peer's converter (bench/lib/servers.ts `bare-fetch-markdown`): turndown on
// each page posted to it, in a worker thread. Plain JS: a worker needs no loader.
import { parentPort } from 'node:worker_threads';
import TurndownService from 'turndown';

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
parentPort?.on('message', ({ id, html }) => {
  try {
    parentPort?.postMessage({ id, markdown: turndown.turndown(html) });
  } catch (error) {
    parentPort?.postMessage({ id, error: String(error) });
  }
});
