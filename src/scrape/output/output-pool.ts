/**
 * A few worker threads that turn a loaded page into its output off the event loop, with a
 * time cap per page: the render=false static blocker (stripBlocked) and/or htmlToMarkdown,
 * in one trip, or the whole `document` output (document/build-document.ts). All are CPU-bound
 * and synchronous: on the main thread a 6 MB page would stall every other request for seconds.
 * A page over its cap has its worker terminated (the only way to stop synchronous code) and
 * replaced; the caller gets TIMED_OUT.
 *
 * Workers start on first use, so a service that never asks for Markdown, blocking or a
 * document starts none; `pagegrab serve` starts them at boot instead (warmUp), or its first
 * Markdown page waited for a worker's boot (seconds on a busy machine). Given a filters dir,
 * each worker loads the filter engines while it boots (~0.2-1 s), before it reports ready, so
 * that load never counts against a page's cap.
 */
import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { DocumentSource } from '../../documents/index.js';
import { AppError, appError, type ErrorCode } from '../../errors.js';
import type { BlockSelection, PageDocument } from '../types.js';
import type {
  DocumentWork,
  JsonWork,
  OutputReply,
  OutputRequest,
  OutputWorkerData,
} from './output-worker.js';

/**
 * Each worker's young generation, in MB (Node's default is 48: 16 MB semi-spaces). A
 * conversion builds, clones and measures the page's whole tree; with 16 MB semi-spaces a
 * 100 KB page's scavenges fall mid-conversion, copy that live tree and promote it, and the
 * old generation then fills towards a full collection every few pages (the service's
 * HEAP_GROWING_PERCENT flag is the process's, so it tightens the workers' limit too). With
 * 32 MB semi-spaces most pages convert between two scavenges: 30-37 ms of CPU per page of
 * bench/scrape-fetch.ts's page fell to 18-23 (all threads), for ~35 MB more per worker.
 */
export const OUTPUT_WORKER_YOUNG_GENERATION_MB = 96;

export interface OutputPoolOptions {
  /** MARKDOWN_WORKERS: worker threads (pages beyond that wait their turn). */
  size: number;
  /**
   * MARKDOWN_MAX_MS: longest one page (strip + conversion, or a whole document) may run,
   * whatever the scrape's budget.
   */
  maxMs: number;
  /**
   * The built filter engines (loadFilterEngines), loaded by each worker at boot. Default
   * none: the pool then only converts, and a job asking to strip fails with INTERNAL.
   */
  filtersDir?: string;
}

/** One page's work: strip `block` (if given), then convert to Markdown (if `markdown`). */
export interface OutputJob {
  html: string;
  pageUrl: string;
  block?: BlockSelection;
  markdown: boolean;
  /** A page that is not HTML, converted from this when `markdown`. */
  source?: DocumentSource;
}

/** One page's `document` output: every asked format, from the page stripped of `block`. */
export type DocumentJob = Omit<DocumentWork, 'kind'>;

/** One page's JSON answer: its extract_rules fields or its structured data. */
export type JsonJob = Omit<JsonWork, 'kind'>;

export interface ConvertLimits {
  /** Epoch ms by which the scrape must be done; the cap never runs past it. */
  deadline?: number;
  /** The scrape's whole budget, for the error text when the deadline is what ran out. */
  budgetMs?: number;
  /** Aborting it (client gone, budget spent) stops the conversion; rejects with its reason. */
  signal?: AbortSignal;
}

export interface OutputPool {
  /** The resulting text (stripped HTML, or Markdown). */
  run(job: OutputJob, limits?: ConvertLimits): Promise<string>;
  /** The PageDocument, as the worker built it (a structured clone), under the same limits. */
  document(job: DocumentJob, limits?: ConvertLimits): Promise<PageDocument>;
  /** The fields or structured data as UTF-8 JSON, under the same limits. */
  json(job: JsonJob, limits?: ConvertLimits): Promise<Buffer>;
  /** The resource limits each running worker reports (its heap's sizes). */
  workerLimits(): ResourceLimits[];
  /**
   * Starts every worker now rather than on the first page; resolves with how many are ready
   * once none is booting (fewer if one failed to start: its page-time replacement applies).
   */
  warmUp(): Promise<number>;
  /** Terminates the workers; pages still pending fail with NOT_READY. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  request: OutputRequest;
  limits: ConvertLimits;
  resolve(result: string | Uint8Array | PageDocument): void;
  reject(error: unknown): void;
  cleanup(): void;
}

interface Slot {
  worker: Worker;
  /** The worker has loaded the converter and engines (boot time is not charged to a page). */
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/**
 * The build runs the .js next to this file. Under tsx (tests, benches) the sources are .ts,
 * and on Node 20 a worker does not inherit tsx's loader, so a bootstrap registers it first.
 */
function startWorker(workerData: OutputWorkerData): Worker {
  const resourceLimits = { maxYoungGenerationSizeMb: OUTPUT_WORKER_YOUNG_GENERATION_MB };
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./output-worker.js', import.meta.url), {
      workerData,
      resourceLimits,
    });
  const source = new URL('./output-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(bootstrap, { eval: true, workerData, resourceLimits });
}

export function createOutputPool(options: OutputPoolOptions): OutputPool {
  const size = Math.max(1, options.size);
  const { maxMs } = options;
  const workerData: OutputWorkerData = options.filtersDir ? { filtersDir: options.filtersDir } : {};
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;
  /** Called when a worker reports ready or dies: warmUp's waits. */
  const settledBoots: (() => void)[] = [];
  const bootSettled = (): void => {
    for (const waiting of settledBoots.splice(0)) waiting();
  };

  const spawn = (): Slot => {
    const slot: Slot = { worker: startWorker(workerData), ready: false, job: null, timer: null };
    slot.worker.on('message', (reply: OutputReply | 'ready') => {
      if (reply === 'ready') {
        slot.ready = true;
        slot.worker.unref(); // idle workers never hold the process open
        dispatch();
        bootSettled();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      if ('loading' in reply) {
        // the worker loads the PDF reader once, on its first PDF: like its boot, not the
        // page's time; the scrape's own deadline still holds
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        if (!reply.loading) arm(slot, job);
        return;
      }
      finish(slot);
      if ('text' in reply) job.resolve(reply.text);
      else if ('bytes' in reply) job.resolve(reply.bytes);
      else if ('document' in reply) job.resolve(reply.document);
      else if (reply.appError) {
        const { code, status, message } = reply.appError;
        job.reject(new AppError(code as ErrorCode, status, message, {}));
      } else job.reject(appError('INTERNAL'));
    });
    slot.worker.on('error', () => died(slot));
    slot.worker.on('exit', () => {
      if (!closed && slots.includes(slot)) died(slot);
    });
    return slot;
  };

  /** The job is over for this slot: clear its timer, idle the worker, start the next. */
  const finish = (slot: Slot): void => {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job?.cleanup();
    slot.job = null;
    slot.worker.unref();
    dispatch();
  };

  /**
   * A worker died. One that never reported ready fails the oldest waiting page: a worker
   * that cannot start (seen: a `--import` preload the worker could not load) would otherwise
   * be replaced forever while the pages wait; this way each failed start ends one page with
   * INTERNAL and the respawns stop when none wait.
   */
  const died = (slot: Slot): void => {
    const waiting = slot.ready ? undefined : queue.shift();
    replace(slot, appError('INTERNAL'));
    if (waiting) {
      waiting.cleanup();
      waiting.reject(appError('INTERNAL'));
    }
  };

  /** Kills a worker mid-job and puts a fresh one in its place. */
  const replace = (slot: Slot, error: unknown): void => {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    job?.cleanup();
    const i = slots.indexOf(slot);
    if (i >= 0) slots.splice(i, 1);
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => {}); // a terminated worker may still report
    void slot.worker.terminate();
    job?.reject(error);
    dispatch();
    bootSettled();
  };

  const dispatch = (): void => {
    while (!closed && queue.length > 0) {
      const slot = slots.find((s) => s.ready && s.job === null);
      if (!slot) {
        // a booting worker will call dispatch when ready
        let booting = slots.filter((s) => !s.ready).length;
        while (slots.length < size && booting < queue.length) {
          slots.push(spawn());
          booting++;
        }
        return;
      }
      const job = queue.shift() as Job;
      start(slot, job);
    }
  };

  /** The job's cap from now: the smaller of the conversion bound and its deadline. */
  const capOf = (job: Job): { capMs: number; error: () => AppError } => {
    const { deadline, budgetMs } = job.limits;
    const left = deadline === undefined ? Number.POSITIVE_INFINITY : deadline - Date.now();
    // the budget bound it if it is the smaller: say so with the budget's own figure
    const byBudget = left <= maxMs;
    const capMs = Math.max(0, Math.min(maxMs, left));
    return {
      capMs,
      error: () => appError('TIMED_OUT', byBudget && budgetMs !== undefined ? budgetMs : capMs),
    };
  };

  /** Starts (or, after the PDF reader's load, restarts) the job's cap. */
  const arm = (slot: Slot, job: Job): boolean => {
    const { capMs, error } = capOf(job);
    if (capMs <= 0) {
      replace(slot, error());
      return false;
    }
    slot.timer = setTimeout(() => replace(slot, error()), capMs);
    return true;
  };

  const start = (slot: Slot, job: Job): void => {
    const { capMs, error } = capOf(job);
    if (capMs <= 0) {
      job.cleanup();
      job.reject(error());
      return;
    }
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => replace(slot, error()), capMs);
    try {
      slot.worker.postMessage(job.request);
    } catch {
      // a value that cannot be cloned (a step's return value): this page fails, not the pool
      const failed = job;
      finish(slot);
      failed.reject(appError('INTERNAL'));
    }
  };

  const submit = (request: OutputRequest, limits: ConvertLimits) => {
    if (closed) return Promise.reject(appError('NOT_READY', 'shutting down'));
    const { signal } = limits;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<string | Uint8Array | PageDocument>((resolve, reject) => {
      const onAbort = () => {
        const queued = queue.indexOf(job);
        if (queued >= 0) {
          queue.splice(queued, 1);
          job.cleanup();
          reject(signal?.reason);
          return;
        }
        const slot = slots.find((s) => s.job === job);
        if (slot) replace(slot, signal?.reason);
      };
      const job: Job = {
        id: request.id,
        request,
        limits,
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(job);
      dispatch();
    });
  };

  return {
    async run({ html, pageUrl, block, markdown, source }, limits = {}) {
      const id = nextId++;
      const request: OutputRequest = { id, kind: 'text', html, pageUrl, markdown };
      if (block) request.block = block;
      if (source) request.source = source;
      return (await submit(request, limits)) as string;
    },
    async document({ page, block }, limits = {}) {
      const request: OutputRequest = { id: nextId++, kind: 'document', page };
      if (block) request.block = block;
      return (await submit(request, limits)) as PageDocument;
    },
    async json(job, limits = {}) {
      const request: OutputRequest = { id: nextId++, kind: 'json', ...job };
      const bytes = (await submit(request, limits)) as Uint8Array;
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    workerLimits: () => slots.map((slot) => slot.worker.resourceLimits ?? {}),
    async warmUp() {
      while (!closed && slots.length < size) slots.push(spawn());
      while (!closed && slots.some((s) => !s.ready)) {
        await new Promise<void>((resolve) => settledBoots.push(resolve));
      }
      return slots.filter((s) => s.ready).length;
    },
    async close() {
      closed = true;
      bootSettled();
      const pending = [...queue, ...slots.flatMap((s) => (s.job ? [s.job] : []))];
      queue.length = 0;
      for (const slot of slots) if (slot.timer) clearTimeout(slot.timer);
      const workers = slots.splice(0).map((s) => s.worker);
      for (const job of pending) {
        job.cleanup();
        job.reject(appError('NOT_READY', 'shutting down'));
      }
      await Promise.allSettled(workers.map((w) => w.terminate()));
    },
  };
}
