import type { RequestRecord } from '../api/types.js';
import { formatMs, formatTime } from '../lib/format.js';
import { href } from '../lib/route.js';
import { ScheduleMark } from './schedule-mark.js';

function webhookText(r: RequestRecord): string {
  if (!r.webhook) return '–';
  const { status, attempts, lastError } = r.webhook;
  return `${status} (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'})${lastError ? `: ${lastError}` : ''}`;
}

/** Header texts; each cell repeats its own as data-label for the stacked narrow layout. */
const COLUMNS = [
  'Time',
  'Status',
  'Target status',
  'Output',
  'Credits',
  'Duration',
  'Error',
  'Webhook',
] as const;

/** A workflow's request records, newest first, as the API answers them. */
export function HistoryTable({ records }: { records: RequestRecord[] }) {
  if (records.length === 0) return <p class="muted">No runs yet.</p>;
  return (
    <div class="table-wrap">
      <table class="history" data-testid="history-table">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr key={r.id} data-testid="history-row" data-status={r.status}>
              <td data-label={COLUMNS[0]} class="nowrap">
                {/* The record in the request log: its parameters and its kept result. */}
                <a href={href.request(r.id)} data-testid="history-open">
                  {formatTime(r.createdAt)}
                </a>{' '}
                <ScheduleMark schedule={r.schedule} />
              </td>
              <td data-label={COLUMNS[1]}>
                {/* One child: the stacked layout puts each child of a cell in its own column. */}
                <span>
                  <span class={`badge ${r.status === 'success' ? 'ok' : 'bad'}`}>{r.status}</span>{' '}
                  {r.statusCode}
                </span>
              </td>
              <td data-label={COLUMNS[2]}>{r.targetStatus ?? '–'}</td>
              <td data-label={COLUMNS[3]}>{r.outputType}</td>
              <td data-label={COLUMNS[4]}>{r.creditsSpent}</td>
              <td data-label={COLUMNS[5]} class="nowrap">
                {formatMs(r.durationMs)}
              </td>
              <td data-label={COLUMNS[6]} class="break">
                {r.error ?? '–'}
              </td>
              <td data-label={COLUMNS[7]} class="break" data-testid="history-webhook">
                {webhookText(r)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
