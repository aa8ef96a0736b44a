import type { LogRecord } from '../api/types.js';
import { formatMs, formatTime } from '../lib/format.js';
import { href, navigate } from '../lib/route.js';

const SOURCE_TEXT: Record<string, string> = {
  api: 'API',
  workflow: 'Workflow',
  firecrawl: 'Firecrawl',
  batch: 'Batch',
  crawl: 'Crawl',
  schedule: 'Schedule',
};

export const sourceText = (source: string) => SOURCE_TEXT[source] ?? source;

export function StatusBadge({ r }: { r: Pick<LogRecord, 'status' | 'statusCode'> }) {
  const tone = r.status === 'success' ? 'ok' : r.status === 'failed' ? 'bad' : '';
  return (
    <span class={`badge ${tone}`}>
      {r.status}
      {r.statusCode ? ` ${r.statusCode}` : ''}
    </span>
  );
}

const COLUMNS = ['Time', 'Status', 'Source', 'URL', 'Target', 'Credits', 'Duration'] as const;

/**
 * Request log rows; each opens its detail. The URL cell holds the row's link (a real link:
 * keyboard, middle-click, copy link), and a click anywhere on the row follows it too.
 */
export function LogTable({
  records,
  testId = 'log-table',
}: {
  records: LogRecord[];
  testId?: string;
}) {
  return (
    <div class="table-wrap">
      <table class="history log" data-testid={testId}>
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
            <tr
              key={r.id}
              class="clickable"
              data-testid="log-row"
              data-status={r.status}
              onClick={(e) => {
                if ((e.target as HTMLElement).closest('a')) return;
                navigate(href.request(r.id));
              }}
            >
              <td data-label={COLUMNS[0]} class="nowrap">
                {formatTime(r.createdAt)}
              </td>
              <td data-label={COLUMNS[1]}>
                <StatusBadge r={r} />
              </td>
              <td data-label={COLUMNS[2]}>{sourceText(r.source)}</td>
              <td data-label={COLUMNS[3]} class="url-cell">
                <a href={href.request(r.id)} title={r.url}>
                  {r.url}
                </a>
              </td>
              <td data-label={COLUMNS[4]}>{r.targetStatus ?? '–'}</td>
              <td data-label={COLUMNS[5]}>{r.creditsSpent}</td>
              <td data-label={COLUMNS[6]} class="nowrap">
                {formatMs(r.durationMs)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
