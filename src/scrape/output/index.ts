/**
 * The output stage: a PageSnapshot becomes the bytes the caller (or a webhook) receives.
 * The table is keyed by OutputType, so a new output type fails to compile until handled.
 *
 * Markdown, and the render=false static blocker, run in a worker pool (output-pool.ts) so
 * that a large or hostile page never blocks the event loop; a page that needs both costs one
 * trip.
 */
import { appError } from '../../errors.js';
import type {
  BlockSelection,
  OutputType,
  PageSnapshot,
  ScrapeResult,
  ScrapeRun,
} from '../types.js';
import { createOutputPool, type OutputPool, type OutputPoolOptions } from './output-pool.js';

/** The page's HTML after blocking (if any), as is or converted to Markdown. */
type Transform = (html: string, pageUrl: string, markdown: boolean) => Promise<string> | string;
type Produced = { contentType: string; body: Buffer };

function textOutput(text: Promise<string> | string, contentType: string) {
  const result = (t: string): Produced => ({ contentType, body: Buffer.from(t, 'utf8') });
  return typeof text === 'string' ? result(text) : text.then(result);
}

const producers: Record<
  OutputType,
  (snapshot: PageSnapshot, transform: Transform) => Promise<Produced> | Produced
> = {
  html: (snapshot, transform) =>
    textOutput(transform(snapshot.html, snapshot.finalUrl, false), 'text/html; charset=utf-8'),
  markdown: (snapshot, transform) =>
    textOutput(transform(snapshot.html, snapshot.finalUrl, true), 'text/markdown; charset=utf-8'),
  document: () => {
    throw appError('INTERNAL');
  },
  screenshot: (snapshot) => {
    if (!snapshot.screenshot) throw appError('BROWSER_FAILED', 'no screenshot was taken');
    return { contentType: 'image/png', body: snapshot.screenshot };
  },
};

export interface OutputStage {
  /**
   * Strips `block` from the page's HTML (render=false blocking; only when the stage has a
   * filters dir) and converts to Markdown if the plan asks, in the pool, bounded by the plan's
   * deadline and signal (TIMED_OUT). Without either, the snapshot's bytes are used as they are.
   */
  produce(plan: ScrapeRun, snapshot: PageSnapshot, block?: BlockSelection): Promise<ScrapeResult>;
  /** Stops the workers. */
  close(): Promise<void>;
}

export type OutputStageOptions = OutputPoolOptions;

/** Built by the composition root (compose/scrape-parts.ts); closed on shutdown. */
export function createOutputStage(options: OutputStageOptions): OutputStage {
  const pool: OutputPool = createOutputPool(options);
  return {
    async produce(plan, snapshot, block) {
      const transform: Transform = (html, pageUrl, markdown) =>
        !block && !markdown
          ? html
          : pool.run(
              { html, pageUrl, ...(block ? { block } : {}), markdown },
              { deadline: plan.deadline, budgetMs: plan.options.timeoutMs, signal: plan.signal },
            );
      const produced = await producers[plan.output](snapshot, transform);
      return { ...produced, finalUrl: snapshot.finalUrl, targetStatus: snapshot.status };
    },
    close: () => pool.close(),
  };
}
