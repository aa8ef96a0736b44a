/** All workflow endpoints (description "Workflow endpoints"), for main.ts's `routes`. */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../store/db.js';
import { WorkflowService } from '../../workflows/workflow-service.js';
import type { AppInstance, RouteRegistrar } from '../app.js';
import { registerWorkflowListRoute } from './workflow.get.js';
import { registerWorkflowArchiveRoutes } from './workflow-archive.delete.js';
import { registerWorkflowCreateRoute } from './workflow-create.post.js';
import { registerWorkflowEditRoute } from './workflow-edit.patch.js';
import { registerWorkflowRenameRoute } from './workflow-rename.patch.js';
import { registerWorkflowRequestsRoute } from './workflow-requests.get.js';

/**
 * An empty body sent with `Content-Type: application/json` (common for DELETE and POST
 * from HTTP libraries) counts as no body: archive/unarchive take none, and create/edit
 * then answer with their own texts (`Name is required!`...). Other bodies keep Fastify's
 * parser, prototype-poisoning guard included.
 */
function acceptEmptyJson(scope: FastifyInstance): void {
  const json = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    return json(request, String(body), done);
  });
}

export function workflowRoutes(store: Store): RouteRegistrar {
  const service = new WorkflowService(store);
  return (app) => {
    // A child context, so the parser above applies to these routes only.
    app.register(async (scope) => {
      acceptEmptyJson(scope);
      const routes = scope as unknown as AppInstance;
      registerWorkflowListRoute(routes, service);
      registerWorkflowCreateRoute(routes, service);
      registerWorkflowEditRoute(routes, service);
      registerWorkflowRenameRoute(routes, service);
      registerWorkflowArchiveRoutes(routes, service);
      registerWorkflowRequestsRoute(routes, service);
    });
  };
}
