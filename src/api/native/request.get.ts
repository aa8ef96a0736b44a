/**
 * GET /api/requests/{id}: one record of the request log with its parameters, timings,
 * webhook delivery state and whether its result is kept (GET /api/requests/{id}/result).
 * Another account's record is `Request not found!`, as an unknown one.
 */
import { Type } from '@sinclair/typebox';
import { appError } from '../../errors.js';
import { findRequest } from '../../store/request-log.js';
import { errorResponses } from '../openapi-shapes.js';
import { accountOf } from '../plugins/auth.js';
import { finishedAtOf, LogDetailSchema, logRecordJson } from '../request-log.js';
import { defineRoute } from '../route.js';
import { ApiKeyQuery, workflowRouteBase } from '../workflow-route-options.js';

export const RequestIdParams = Type.Object({ id: Type.String({ description: 'A request id' }) });

export default defineRoute((app, { store, keptResults }) => {
  app.get(
    '/api/requests/:id',
    {
      ...workflowRouteBase(app),
      schema: {
        operationId: 'getRequest',
        summary: 'One request of the log, in detail',
        tags: ['requests'],
        params: RequestIdParams,
        querystring: Type.Object(ApiKeyQuery),
        response: { 200: LogDetailSchema, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const accountId = accountOf(request).id;
      const row = await findRequest(store.db, accountId, id);
      if (!row) throw appError('REQUEST_NOT_FOUND');
      const { workflow_name: workflowName, ...record } = row;
      return {
        record: logRecordJson(record),
        workflowName,
        params: record.params === null ? null : (JSON.parse(record.params) as object),
        finishedAt: finishedAtOf(record),
        result: await keptResults.info(accountId, id),
      };
    },
  );
});
