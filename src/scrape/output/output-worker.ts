/**
 * Worker-thread side of the output pool. Per message, either strips the blocked elements from
 * a fetched page (render=false block_* options) and/or converts it to Markdown, or builds the
 * whole `document` output (every asked format, handed back as the PageDocument itself: a
 * structured clone, never JSON the main thread would parse again), so a page costs one trip
 * off the event loop. Pages leave no state behind, so the pool may
 * terminate the thread mid-page and start a fresh one. The filter engines are the only
 * state: loaded once, at boot when the pool was given a filters dir (boot time is not
 * charged to a page).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type DocumentSource, documentToMarkdown } from '../../documents/index.js';
import { loadPdfjs } from '../../documents/pdf-markdown.js';
import { isAppError } from '../../errors.js';
import { htmlToMarkdown } from '../../markdown/index.js';
import { type FilterEngines, loadFilterEngines } from '../blockers/filter-engines.js';
import { stripBlocked } from '../blockers/static-blocker.js';
import type { BlockSelection, ExtractField, PageDocument } from '../types.js';
import { buildDocument, type DocumentInput } from './document/build-document.js';
import { extractFields } from './extract/extract-fields.js';
import { structuredData } from './structured-data/index.js';

export interface OutputWorkerData {
  /** Where the built filter engines are; absent: this pool never strips. */
  filtersDir?: string;
}

/** Strip `block` (if given), then convert to Markdown (if `markdown`): a string back. */
export interface TextWork {
  kind: 'text';
  html: string;
  pageUrl: string;
  /** Strip these first (needs the pool's filters dir). */
  block?: BlockSelection;
  /** Then convert the (stripped) page to Markdown. */
  markdown: boolean;
  /** A page that is not HTML: converted from this instead (never stripped). */
  source?: DocumentSource;
}

/** The `document` output: its PageDocument back. `html` is left out: it is rawHtml stripped. */
export interface DocumentWork {
  kind: 'document';
  page: Omit<DocumentInput, 'html' | 'converted'> & { source?: DocumentSource };
  /** Stripped off the page before every format but rawHtml. */
  block?: BlockSelection;
}

/**
 * A JSON answer read from the page (stripped of `block` first): the fields of its
 * `extract_rules`, or its structured data. Its UTF-8 JSON back.
 */
export interface JsonWork {
  kind: 'json';
  html: string;
  pageUrl: string;
  block?: BlockSelection;
  read: { fields: ExtractField[] } | 'structured_data';
}

export type OutputRequest = (TextWork | DocumentWork | JsonWork) & { id: number };

export type OutputReply =
  | { id: number; text: string }
  | { id: number; bytes: Uint8Array }
  | { id: number; document: PageDocument }
  | { id: number; error: string; appError?: { code: string; status: number; message: string } }
  /** true: loading the PDF reader (its first PDF), not the page's time; false: loaded. */
  | { id: number; loading: boolean };

const { filtersDir } = (workerData ?? {}) as OutputWorkerData;
let filters: Promise<FilterEngines> | null = null;
const engines = (): Promise<FilterEngines> => {
  if (!filtersDir) return Promise.reject(new Error('the output pool has no filters dir'));
  filters ??= loadFilterEngines(filtersDir);
  return filters;
};

async function strip(html: string, pageUrl: string, block?: BlockSelection): Promise<string> {
  return block ? stripBlocked(html, pageUrl, block, await engines()) : html;
}

let pdfjsLoaded = false;

/**
 * A worker loads pdfjs on its first PDF, not at boot (most services never see one); the pool
 * stops that page's clock meanwhile (the load is seconds under tsx on a busy machine).
 */
async function readyForPdf(id: number, source: DocumentSource | undefined): Promise<void> {
  if (pdfjsLoaded || source?.kind !== 'pdf') return;
  parentPort?.postMessage({ id, loading: true } satisfies OutputReply);
  await loadPdfjs().catch(() => {});
  pdfjsLoaded = true;
  parentPort?.postMessage({ id, loading: false } satisfies OutputReply);
}

async function run(request: OutputRequest): Promise<OutputReply> {
  const { id } = request;
  if (request.kind === 'json') {
    const html = await strip(request.html, request.pageUrl, request.block);
    const { read } = request;
    const value =
      read === 'structured_data'
        ? structuredData(html, request.pageUrl)
        : extractFields(html, read.fields);
    return { id, bytes: new TextEncoder().encode(JSON.stringify(value)) };
  }
  await readyForPdf(id, request.kind === 'text' ? request.source : request.page.source);
  if (request.kind === 'text') {
    if (request.markdown && request.source) {
      return { id, text: (await documentToMarkdown(request.source)).markdown };
    }
    const html = await strip(request.html, request.pageUrl, request.block);
    return { id, text: request.markdown ? htmlToMarkdown(html, request.pageUrl) : html };
  }
  const { source, ...page } = request.page;
  const converted = source && page.request.markdown ? await documentToMarkdown(source) : null;
  const html = source ? page.rawHtml : await strip(page.rawHtml, page.pageUrl, request.block);
  return { id, document: buildDocument({ ...page, html, converted }) };
}

parentPort?.on('message', (request: OutputRequest) => {
  run(request).then(
    (reply) =>
      'bytes' in reply
        ? parentPort?.postMessage(reply, [reply.bytes.buffer as ArrayBuffer])
        : parentPort?.postMessage(reply),
    (error: unknown) =>
      parentPort?.postMessage({
        id: request.id,
        error: String(error),
        // a document's own failure (encrypted, damaged, no Markdown) is the caller's answer
        ...(isAppError(error) && {
          appError: { code: error.code, status: error.status, message: error.message },
        }),
      } satisfies OutputReply),
  );
});
// A failed load is reported by the first strip job that needs it, not at boot.
if (filtersDir) await engines().catch(() => {});
parentPort?.postMessage('ready');
