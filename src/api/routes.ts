/** Every route the service answers, one file each; buildApp registers them in this order. */

import { firecrawlDoor } from './firecrawl/door.js';
import { firecrawlRoutes } from './firecrawl/routes.js';
import accountGet from './native/account.get.js';
import crawlsGet from './native/crawls.get.js';
import openapiGet from './native/openapi.get.js';
import scraperGet from './native/scraper.get.js';
import workflowGet from './native/workflow.get.js';
import workflowArchiveDelete from './native/workflow-archive.delete.js';
import workflowCreatePost from './native/workflow-create.post.js';
import workflowEditPatch from './native/workflow-edit.patch.js';
import workflowRenamePatch from './native/workflow-rename.patch.js';
import workflowRequestsGet from './native/workflow-requests.get.js';
import workflowUnarchivePost from './native/workflow-unarchive.post.js';
import healthzGet from './operations/healthz.get.js';
import metricsGet from './operations/metrics.get.js';
import pressureGet from './operations/pressure.get.js';
import readyzGet from './operations/readyz.get.js';
import { withEmptyJsonBody } from './plugins/empty-json-body.js';
import type { Route } from './route.js';

export const routes: readonly Route[] = [
  healthzGet,
  readyzGet,
  metricsGet,
  accountGet,
  crawlsGet,
  scraperGet,
  // The workflow endpoints take an empty JSON body as none (plugins/empty-json-body.ts).
  withEmptyJsonBody([
    workflowGet,
    workflowCreatePost,
    workflowEditPatch,
    workflowRenamePatch,
    workflowArchiveDelete,
    workflowUnarchivePost,
    workflowRequestsGet,
  ]),
  pressureGet,
  openapiGet,
  // Firecrawl's API (/v1, /v2): its own envelope and body validation.
  firecrawlDoor(firecrawlRoutes),
];
