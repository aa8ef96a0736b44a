/**
 * What the HTTP layer uses of the rest of the service: one object the composition root
 * (main.ts) builds and hands to buildApp. Routes take what they need from it; nothing under
 * api/ builds a part of its own.
 */
import type { ApiKeyLookup } from '../accounts/api-key-lookup.js';
import type { FirecrawlServices } from '../firecrawl/door-services.js';
import type { BatchService } from '../jobs/batches/batch-service.js';
import type { CrawlService } from '../jobs/crawls/crawl-service.js';
import type { ExtractService } from '../jobs/extracts/extract-service.js';
import type { ScheduleService } from '../jobs/schedules/schedule-service.js';
import type { WebhookQueue } from '../jobs/webhooks/webhook-queue.js';
import type { MapService } from '../map/map-service.js';
import type { ModelCalls } from '../models/model-calls.js';
import type { Admission } from '../scrape/admission/admission.js';
import type { BrowserEngine } from '../scrape/engines/browser/index.js';
import type { ScrapeUseCase } from '../scrape/scrape-use-case.js';
import type { Store } from '../store/db.js';
import type { KeptResults } from '../store/kept-results.js';
import type { WorkflowService } from '../workflows/workflow-service.js';
import type { Metrics } from './metrics.js';

export interface ApiServices {
  /** Finds the account of an API key, on every authenticated request. */
  keys: Pick<ApiKeyLookup, 'find'>;
  /** /readyz checks the database answers. */
  store: Pick<Store, 'db'>;
  /** The request log's kept results (those still queued read from the queue). */
  keptResults: Pick<KeptResults, 'read' | 'info'>;
  metrics: Metrics;
  scraper: ScrapeUseCase;
  /** Takes scrapes with a webhook_url; null: such scrapes are answered directly. */
  webhooks: WebhookQueue | null;
  workflows: WorkflowService;
  readiness: Readiness;
  pressure: PressureSource;
  /** The Firecrawl door's cache and screenshot links. */
  firecrawl: FirecrawlServices;
  /** The account's scrapes in flight on this node (the door's concurrency check). */
  admission: Pick<Admission, 'inFlightFor'>;
  /** The Firecrawl door's batch scrapes. */
  batches: BatchService;
  /** The Firecrawl door's crawls (their status, results and cancel are the batches'). */
  crawls: CrawlService;
  /** The Firecrawl door's maps. */
  map: Pick<MapService, 'map'>;
  /** Workflow schedules (issue 18). */
  schedules: ScheduleService;
  /** The operator's language model, paid per call; null: none configured (MODEL_* settings). */
  models: ModelCalls | null;
  /** The Firecrawl door's extracts (jobs over URLs, answered by the model). */
  extracts: ExtractService;
}

export interface Readiness {
  /** The browser pool's state for /readyz. */
  browser(): unknown;
  /** True once SIGTERM started a drain: the load balancer should stop sending traffic. */
  draining(): boolean;
}

/** What /pressure reads; the composition root builds it with pressureSource(). */
export interface PressureSource {
  draining(): boolean;
  /** Scrapes in flight on this node and the node bound (NODE_CONCURRENCY). */
  scrapes(): { inFlight: number; capacity: number };
  /** Browser page slots (BROWSER_PAGES) in use, and renders waiting for one. */
  renders(): { inUse: number; capacity: number; queued: number };
}

/** The pressure source as the composition root has it: node admission and the browser pool. */
export function pressureSource(
  admission: Pick<Admission, 'inFlight' | 'capacity'>,
  browser: Pick<BrowserEngine, 'status'>,
  draining: () => boolean,
): PressureSource {
  return {
    draining,
    scrapes: () => ({ inFlight: admission.inFlight(), capacity: admission.capacity() }),
    renders: () => {
      const pool = browser.status();
      return { inUse: pool.pagesInUse, capacity: pool.capacity, queued: pool.queued };
    },
  };
}
