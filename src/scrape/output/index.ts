/**
 * The output stage: a PageSnapshot becomes the bytes the caller (or a webhook) receives.
 * The table is keyed by OutputType, so a new output type fails to compile until handled.
 *
 * Markdown is converted in a worker pool (markdown-pool.ts) so that a large or hostile page
 * never blocks the event loop; `produceOutput` converts in-line and is kept for callers
 * without a pool.
 */
import { appError } from '../../api/errors.js';
import type { OutputType, PageSnapshot, ScrapePlan, ScrapeResult } from '../types.js';
import { htmlToMarkdown } from './markdown/index.js';
import {
  createMarkdownPool,
  type MarkdownPool,
  type MarkdownPoolOptions,
} from './markdown-pool.js';

type Producer = (
  snapshot: PageSnapshot,
  markdown: (html: string, pageUrl: string) => Promise<string> | string,
) => Promise<{ contentType: string; body: Buffer }> | { contentType: string; body: Buffer };

const producers: Record<OutputType, Producer> = {
  html: (snapshot) => ({
    contentType: 'text/html; charset=utf-8',
    body: Buffer.from(snapshot.html, 'utf8'),
  }),
  markdown: (snapshot, markdown) => {
    const text = markdown(snapshot.html, snapshot.finalUrl);
    const result = (md: string) => ({
      contentType: 'text/markdown; charset=utf-8',
      body: Buffer.from(md, 'utf8'),
    });
    return typeof text === 'string' ? result(text) : text.then(result);
  },
  screenshot: (snapshot) => {
    if (!snapshot.screenshot) throw appError('BROWSER_FAILED', 'no screenshot was taken');
    return { contentType: 'image/png', body: snapshot.screenshot };
  },
};

/** Converts in-line, on the calling thread (tests, tools). */
export function produceOutput(plan: ScrapePlan, snapshot: PageSnapshot): ScrapeResult {
  const produced = producers[plan.output](snapshot, htmlToMarkdown);
  if (produced instanceof Promise) throw new Error('unreachable: in-line producers are sync');
  return { ...produced, finalUrl: snapshot.finalUrl, targetStatus: snapshot.status };
}

export interface OutputStage {
  /** Markdown runs in the pool, bounded by the plan's deadline and signal (TIMED_OUT). */
  produce(plan: ScrapePlan, snapshot: PageSnapshot): Promise<ScrapeResult>;
  /** Stops the Markdown workers. */
  close(): Promise<void>;
}

export type OutputStageOptions = MarkdownPoolOptions;

/** Built by the composition root (build-engines.ts); closed on shutdown. */
export function createOutputStage(options: OutputStageOptions = {}): OutputStage {
  const pool: MarkdownPool = createMarkdownPool(options);
  return {
    async produce(plan, snapshot) {
      const produced = await producers[plan.output](snapshot, (html, pageUrl) =>
        pool.convert(html, pageUrl, {
          deadline: plan.deadline,
          budgetMs: plan.options.timeoutMs,
          signal: plan.signal,
        }),
      );
      return { ...produced, finalUrl: snapshot.finalUrl, targetStatus: snapshot.status };
    },
    close: () => pool.close(),
  };
}
