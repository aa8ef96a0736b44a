/** A successful plain-HTML run record, for tests and benches that write records directly. */
import { newId } from '../../src/store/ids.js';
import type { RunRecord } from '../../src/store/run-records.js';

export function sampleRunRecord(
  fields: Pick<RunRecord, 'accountId' | 'workflowId' | 'url'> & Partial<RunRecord>,
): RunRecord {
  return {
    id: newId(),
    status: 'success',
    statusCode: 200,
    targetStatus: 200,
    outputType: 'html',
    render: false,
    proxyType: 'datacenter',
    proxyCountry: null,
    credits: 1,
    durationMs: 5,
    error: null,
    webhook: null,
    createdAt: Date.now(),
    source: fields.workflowId ? 'workflow' : 'api',
    host: new URL(fields.url).hostname,
    params: JSON.stringify({ url: fields.url }),
    ...fields,
  };
}
