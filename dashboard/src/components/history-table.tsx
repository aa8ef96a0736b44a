import type { RequestRecord } from '../api/types.js';
import { formatMs, formatTime } from '../lib/format.js';

function webhookText(r: RequestRecord): string {
  if (!r.webhook) return '–';
  const { status, attempts, lastError } = r.webhook;
  return `${status} (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'})${lastError ? `: ${lastError}` : ''}`;
}

/** A workflow's request records, newest first, as the API answers them. */
export function HistoryTable({ records }: { records: RequestRecord[] }) {
  if (records.length === 0) return <p class="muted">No runs yet.</p>;
  return (
    <div class="table-wrap">
      <table class="history" data-testid="history-table">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Status</th>
            <th scope="col">Target</th>
            <th scope="col">Output</th>
            <th scope="col">Credits</th>
            <th scope="col">Duration</th>
            <th scope="col">Error</th>
            <th scope="col">Webhook</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr key={r.id} data-testid="history-row" data-status={r.status}>
              <td class="nowrap">{formatTime(r.createdAt)}</td>
              <td>
                <span class={`badge ${r.status === 'success' ? 'ok' : 'bad'}`}>{r.status}</span>{' '}
                {r.statusCode}
              </td>
              <td>{r.targetStatus ?? '–'}</td>
              <td>{r.outputType}</td>
              <td>{r.creditsSpent}</td>
              <td class="nowrap">{formatMs(r.durationMs)}</td>
              <td class="break">{r.error ?? '–'}</td>
              <td class="break">{webhookText(r)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
