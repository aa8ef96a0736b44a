/** Every route the service answers, one file each; buildApp registers them in this order. */

import docsGet from './docs/docs.get.js';
import { firecrawlDoor } from './firecrawl/door.js';
import { firecrawlRoutes } from './firecrawl/routes.js';
import accountGet from './native/account.get.js';
import accountUsageGet from './native/account-usage.get.js';
import crawlsGet from './native/crawls.get.js';
import keyCreatePost from './native/key-create.post.js';
import keyRenamePatch from './native/key-rename.patch.js';
import keyRevokeDelete from './native/key-revoke.delete.js';
import keyRotatePost from './native/key-rotate.post.js';
import keysGet from './native/keys.get.js';
import openapiGet from './native/openapi.get.js';
import requestGet from './native/request.get.js';
import requestResultGet from './native/request-result.get.js';
import requestsGet from './native/requests.get.js';
import schedulePreviewGet from './native/schedule-preview.get.js';
import schedulesGet from './native/schedules.get.js';
import scraperGet from './native/scraper.get.js';
import webhookSecretGet from './native/webhook-secret.get.js';
import webhookSecretRotatePost from './native/webhook-secret-rotate.post.js';
import workflowGet from './native/workflow.get.js';
import workflowArchiveDelete from './native/workflow-archive.delete.js';
import workflowCreatePost from './native/workflow-create.post.js';
import workflowEditPatch from './native/workflow-edit.patch.js';
import workflowRenamePatch from './native/workflow-rename.patch.js';
import workflowRequestsGet from './native/workflow-requests.get.js';
import workflowScheduleDelete from './native/workflow-schedule.delete.js';
import workflowScheduleGet from './native/workflow-schedule.get.js';
import workflowSchedulePut from './native/workflow-schedule.put.js';
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
    workflowScheduleGet,
    workflowSchedulePut,
    workflowScheduleDelete,
    schedulesGet,
    schedulePreviewGet,
  ]),
  // The console's endpoints (the dashboard's overview, request log, keys): additions.
  withEmptyJsonBody([
    accountUsageGet,
    requestsGet,
    requestGet,
    requestResultGet,
    keysGet,
    keyCreatePost,
    keyRevokeDelete,
    keyRotatePost,
    keyRenamePatch,
    webhookSecretGet,
    webhookSecretRotatePost,
  ]),
  pressureGet,
  openapiGet,
  docsGet,
  // Firecrawl's API (/v1, /v2): its own envelope and body validation.
  firecrawlDoor(firecrawlRoutes),
];
