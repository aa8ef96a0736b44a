/**
 * Worker-thread side of the output pool: per message, strips the blocked elements from a
 * fetched page (render=false block_* options) and/or converts it to Markdown, so a big page
 * costs one trip off the event loop. Pages leave no state behind, so the pool may terminate
 * the thread mid-page and start a fresh one. The filter engines are the only state: loaded
 * once, at boot when the pool was given a filters dir (boot time is not charged to a page).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { htmlToMarkdown } from '../../markdown/index.js';
import { type FilterEngines, loadFilterEngines } from '../blockers/filter-engines.js';
import { stripBlocked } from '../blockers/static-blocker.js';
import type { BlockSelection } from '../types.js';

export interface OutputWorkerData {
  /** Where the built filter engines are; absent: this pool never strips. */
  filtersDir?: string;
}

export interface OutputRequest {
  id: number;
  html: string;
  pageUrl: string;
  /** Strip these first (needs the pool's filters dir). */
  block?: BlockSelection;
  /** Then convert the (stripped) page to Markdown. */
  markdown: boolean;
}

export type OutputReply = { id: number; text: string } | { id: number; error: string };

const { filtersDir } = (workerData ?? {}) as OutputWorkerData;
let filters: Promise<FilterEngines> | null = null;
const engines = (): Promise<FilterEngines> => {
  if (!filtersDir) return Promise.reject(new Error('the output pool has no filters dir'));
  filters ??= loadFilterEngines(filtersDir);
  return filters;
};

async function run(request: OutputRequest): Promise<string> {
  let html = request.html;
  if (request.block) html = stripBlocked(html, request.pageUrl, request.block, await engines());
  return request.markdown ? htmlToMarkdown(html, request.pageUrl) : html;
}

parentPort?.on('message', (request: OutputRequest) => {
  run(request).then(
    (text) => parentPort?.postMessage({ id: request.id, text } satisfies OutputReply),
    (error: unknown) =>
      parentPort?.postMessage({ id: request.id, error: String(error) } satisfies OutputReply),
  );
});
// A failed load is reported by the first strip job that needs it, not at boot.
if (filtersDir) await engines().catch(() => {});
parentPort?.postMessage('ready');
