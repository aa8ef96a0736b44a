/**
 * The output stage: a PageSnapshot becomes the bytes the caller (or a webhook) receives.
 * The table is keyed by OutputType, so a new output type fails to compile until handled.
 *
 * Markdown, the render=false static blocker and the `document` output (the Firecrawl door's
 * formats, as a JSON PageDocument) run in a worker pool (output-pool.ts) so that a large or
 * hostile page never blocks the event loop; a page costs one trip whatever it needs.
 */
import { DEFAULTS } from '../../config.js';
import {
  contentKindOf,
  type DocumentLimits,
  type DocumentSource,
  unsupported,
} from '../../documents/index.js';
import { appError } from '../../errors.js';
import type {
  BlockSelection,
  OutputType,
  PageDocument,
  PageSnapshot,
  ScrapeResult,
  ScrapeRun,
} from '../types.js';
import { changeTrackingOutput } from './change-tracking-output.js';
import { type ModelOutputType, modelOutput, type PageModel } from './model-output.js';
import { createOutputPool, type OutputPool, type OutputPoolOptions } from './output-pool.js';
import type { ScrapeHistory } from './page-changes.js';

export { assertSelectors } from './document/selectors.js';

type Produced = {
  contentType: string;
  model?: ScrapeResult['model'];
  unspent?: ScrapeResult['unspent'];
} & ({ body: Buffer } | { document: PageDocument });

/** The pool's work for one page, bounded by the run's deadline and signal. */
interface PageWork {
  /** The page's HTML after blocking (if any), as is (its UTF-8 bytes when known) or converted to Markdown. */
  text(markdown: boolean): Promise<string> | string | Buffer;
  /** The `document` output, as the worker built it. */
  document(): Promise<PageDocument>;
  /** The extract_rules fields or the structured data, as JSON. */
  json(read: 'extract' | 'structured_data'): Promise<Buffer>;
  /** The operator's model over the page's main-content Markdown. */
  model(output: ModelOutputType): Promise<Produced>;
  /** The page's main-content Markdown against the account's previous scrape of the URL. */
  changes(): Promise<Produced>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function textOutput(text: Promise<string> | string | Buffer, contentType: string) {
  const result = (t: string | Buffer): Produced => ({
    contentType,
    body: typeof t === 'string' ? Buffer.from(t, 'utf8') : t,
  });
  return text instanceof Promise ? text.then(result) : result(text);
}

const producers: Record<
  OutputType,
  (snapshot: PageSnapshot, work: PageWork) => Promise<Produced> | Produced
> = {
  html: (_snapshot, work) => textOutput(work.text(false), 'text/html; charset=utf-8'),
  markdown: (_snapshot, work) => textOutput(work.text(true), 'text/markdown; charset=utf-8'),
  document: async (_snapshot, work) => ({
    contentType: JSON_TYPE,
    document: await work.document(),
  }),
  extract: async (_snapshot, work) => ({
    contentType: JSON_TYPE,
    body: await work.json('extract'),
  }),
  structured_data: async (_snapshot, work) => ({
    contentType: JSON_TYPE,
    body: await work.json('structured_data'),
  }),
  json: (_snapshot, work) => work.model('json'),
  summary: (_snapshot, work) => work.model('summary'),
  change_tracking: (_snapshot, work) => work.changes(),
  screenshot: (snapshot) => {
    if (!snapshot.screenshot) throw appError('BROWSER_FAILED', 'no screenshot was taken');
    return { contentType: 'image/png', body: snapshot.screenshot };
  },
};

export interface OutputStage {
  /**
   * Strips `block` from the page's HTML (render=false blocking; only when the stage has a
   * filters dir) and converts to Markdown if the plan asks, or builds the plan's `document`,
   * in the pool, bounded by the plan's deadline and signal (TIMED_OUT). Without either, the
   * snapshot's bytes are used as they are.
   */
  produce(plan: ScrapeRun, snapshot: PageSnapshot, block?: BlockSelection): Promise<ScrapeResult>;
  /** Starts the workers before the first page (OutputPool.warmUp). */
  warmUp(): Promise<number>;
  /** Stops the workers. */
  close(): Promise<void>;
}

export interface OutputStageOptions extends OutputPoolOptions {
  /** PDF_MAX_PAGES and DOCUMENT_MAX_BYTES; default config.ts's defaults. */
  documents?: DocumentLimits;
  /** The operator's model (the json and summary outputs); absent: none configured. */
  model?: PageModel | null;
  /** Where change_tracking reads the previous scrape of a URL; absent: it is unavailable. */
  history?: ScrapeHistory;
}

/** Built by the composition root (compose/scrape-parts.ts); closed on shutdown. */
export function createOutputStage(options: OutputStageOptions): OutputStage {
  const pool: OutputPool = createOutputPool(options);
  const documents = options.documents ?? {
    maxPages: DEFAULTS.pdfMaxPages,
    maxBytes: DEFAULTS.documentMaxBytes,
  };
  return {
    async produce(plan, snapshot, block) {
      const source = documentSource(plan, snapshot, documents);
      const limits = {
        deadline: plan.deadline,
        budgetMs: plan.options.timeoutMs,
        signal: plan.signal,
      };
      const html = snapshot.html;
      const pageUrl = snapshot.finalUrl;
      const work: PageWork = {
        text: (markdown) =>
          !block && !markdown
            ? (snapshot.htmlBytes ?? html)
            : pool.run({ html, pageUrl, ...(block ? { block } : {}), markdown }, limits),
        document: () =>
          pool.document(documentJob(plan, snapshot, block, source ?? undefined), limits),
        json: (read) => {
          const fields = plan.options.extractRules;
          if (read === 'extract' && !fields) throw appError('INTERNAL');
          const what = read === 'extract' ? { fields: fields ?? [] } : read;
          return pool.json({ html, pageUrl, ...(block ? { block } : {}), read: what }, limits);
        },
        model: async (output) =>
          modelOutput(
            output,
            options.model ?? null,
            plan.options,
            { url: pageUrl, markdown: await mainMarkdown() },
            plan.signal,
          ),
        changes: async () =>
          changeTrackingOutput(options.history ?? null, options.model ?? null, plan, {
            url: pageUrl,
            markdown: await mainMarkdown(),
            statusCode: snapshot.status,
          }),
      };
      const mainMarkdown = async () => {
        if (source?.kind === 'binary') throw unsupported(source.contentType);
        const text = source
          ? await pool.run({ html, pageUrl, markdown: true, source }, limits)
          : await work.text(true);
        return typeof text === 'string' ? text : text.toString('utf8');
      };
      const produced = source
        ? ((await documentOutput(plan, snapshot, source, (markdown) =>
            pool.run({ html, pageUrl, markdown: true, source: markdown }, limits),
          )) ?? (await producers[plan.output](snapshot, work)))
        : await producers[plan.output](snapshot, work);
      return {
        ...produced,
        finalUrl: snapshot.finalUrl,
        targetStatus: snapshot.status,
        ...(snapshot.used ? { used: snapshot.used } : {}),
        ...(snapshot.retryAfter ? { retryAfter: snapshot.retryAfter } : {}),
      };
    },
    warmUp: () => pool.warmUp(),
    close: () => pool.close(),
  };
}

/**
 * A result's bytes: its body, or its PageDocument as UTF-8 JSON (serialised here, where bytes
 * are kept: the request log, the Firecrawl door's cache).
 */
export function resultBytes(result: ScrapeResult): Buffer {
  return result.body ?? Buffer.from(JSON.stringify(result.document), 'utf8');
}

function documentJob(
  plan: ScrapeRun,
  snapshot: PageSnapshot,
  block?: BlockSelection,
  source?: DocumentSource,
) {
  const request = plan.options.document;
  if (!request) throw appError('INTERNAL');
  if (request.screenshot && !snapshot.screenshot) {
    throw appError('BROWSER_FAILED', 'no screenshot was taken');
  }
  return {
    page: {
      rawHtml: snapshot.html,
      pageUrl: snapshot.finalUrl,
      status: snapshot.status,
      contentType: snapshot.contentType ?? null,
      request,
      // only what the formats ask for crosses to the worker
      screenshot: request.screenshot ? (snapshot.screenshot ?? null) : null,
      actions: snapshot.actions ?? null,
      ...(source && { source }),
    },
    ...(block ? { block } : {}),
  };
}

/**
 * A page that is not HTML (a PDF, a DOCX, text, JSON, XML, CSV, an image): what the pool
 * converts it from; null for HTML, and for text a render handed back as Chromium's own page.
 */
function documentSource(
  plan: ScrapeRun,
  snapshot: PageSnapshot,
  limits: DocumentLimits,
): DocumentSource | null {
  const kind = contentKindOf(snapshot.contentType, snapshot.body);
  if (kind === 'html' || (!snapshot.body && /^\s*<html/i.test(snapshot.html))) return null;
  const asked = plan.options.document?.pdfMaxPages;
  return {
    kind,
    contentType: snapshot.contentType ?? null,
    ...(snapshot.body && { bytes: snapshot.body }),
    text: snapshot.html,
    pageUrl: snapshot.finalUrl,
    limits: { ...limits, maxPages: Math.min(limits.maxPages, asked ?? limits.maxPages) },
  };
}

/**
 * The html and markdown outputs of a page that is not HTML: its own bytes and type for html
 * (never bytes decoded as text), its conversion for markdown; a type with no Markdown is a
 * 422 naming it. Null: the output's usual producer (text as html, every `document`).
 */
async function documentOutput(
  plan: ScrapeRun,
  snapshot: PageSnapshot,
  source: DocumentSource,
  convert: (source: DocumentSource) => Promise<string>,
): Promise<Produced | null> {
  const wantsMarkdown =
    plan.output === 'markdown' || (plan.output === 'document' && plan.options.document?.markdown);
  if (source.kind === 'binary' && wantsMarkdown) throw unsupported(source.contentType);
  if (plan.output === 'html' && snapshot.body) {
    return { contentType: snapshot.contentType ?? 'application/octet-stream', body: snapshot.body };
  }
  if (plan.output !== 'markdown') return null;
  const markdown = await convert(source);
  return { contentType: 'text/markdown; charset=utf-8', body: Buffer.from(markdown, 'utf8') };
}
