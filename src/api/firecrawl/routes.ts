/** Every route of the Firecrawl door, one file each; the door registers them in this order. */
import { withEmptyJsonBody } from '../plugins/empty-json-body.js';
import type { Route } from '../route.js';
import batchCancelDelete from './batch-cancel.delete.js';
import batchErrorsGet from './batch-errors.get.js';
import batchScrapePost from './batch-scrape.post.js';
import batchStatusGet from './batch-status.get.js';
import crawlPost from './crawl.post.js';
import crawlActiveGet from './crawl-active.get.js';
import crawlCancelDelete from './crawl-cancel.delete.js';
import crawlErrorsGet from './crawl-errors.get.js';
import crawlStatusGet from './crawl-status.get.js';
import extractPost from './extract.post.js';
import extractStatusGet from './extract-status.get.js';
import mapPost from './map.post.js';
import notOffered from './not-offered.any.js';
import scrapePost from './scrape.post.js';
import screenshotGet from './screenshot.get.js';
import teamGet from './team.get.js';

export const firecrawlRoutes: readonly Route[] = [
  scrapePost,
  teamGet,
  screenshotGet,
  batchScrapePost,
  batchStatusGet,
  crawlPost,
  crawlActiveGet,
  crawlStatusGet,
  // The v1 SDK sends its DELETEs with Content-Type: application/json and no body.
  withEmptyJsonBody([batchCancelDelete, batchErrorsGet, crawlCancelDelete, crawlErrorsGet]),
  mapPost,
  extractPost,
  extractStatusGet,
  notOffered,
];
