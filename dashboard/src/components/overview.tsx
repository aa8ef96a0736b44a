import { useEffect, useState } from 'preact/hooks';
import { type ApiClient, errorText } from '../api/client.js';
import type { Account, LogRecord, TargetFigure, Usage } from '../api/types.js';
import { formatMs } from '../lib/format.js';
import { href } from '../lib/route.js';
import { LogTable } from './log-table.js';
import { UsageChart } from './usage-chart.js';

interface Props {
  client: ApiClient;
  account: Account | null;
}

/** The landing page: balance, usage over 30 days, outcomes, problem targets, recent requests. */
export function Overview({ client, account }: Props) {
  const [usage, setUsage] = useState<Usage | null>(null);
  const [recent, setRecent] = useState<LogRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    Promise.all([client.usage(), client.requestLog({}, null, 8)]).then(
      ([u, page]) => {
        if (!live) return;
        setUsage(u);
        setRecent(page.records);
      },
      (err: unknown) => live && setError(errorText(err)),
    );
    return () => {
      live = false;
    };
  }, [client]);

  const total = usage ? usage.outcomes.success + usage.outcomes.failed + usage.outcomes.pending : 0;
  const used30 = usage?.days.reduce((s, d) => s + d.credits, 0) ?? 0;
  return (
    <section aria-labelledby="overview-title" data-testid="overview">
      <h1 id="overview-title">Overview</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="cards">
        <div class="card stat">
          <h2 class="stat-label">Balance</h2>
          <p class="stat-value" data-testid="overview-balance">
            {(usage?.credits ?? account?.credits ?? 0).toLocaleString()}
          </p>
          <p class="muted small">credits left</p>
        </div>
        <div class="card stat">
          <h2 class="stat-label">Used, 30 days</h2>
          <p class="stat-value" data-testid="overview-used">
            {used30.toLocaleString()}
          </p>
          <p class="muted small">credits</p>
        </div>
        <div class="card stat">
          <h2 class="stat-label">Requests, 30 days</h2>
          <p class="stat-value">{total.toLocaleString()}</p>
          <Outcomes usage={usage} total={total} />
        </div>
      </div>
      <div class="card">
        <h2>Credits used per day</h2>
        {usage ? <UsageChart days={usage.days} /> : !error && <p aria-live="polite">Loading…</p>}
      </div>
      <div class="cards two">
        <div class="card">
          <h2>Slowest targets</h2>
          <Targets targets={usage?.slowest} empty="No successful requests yet." kind="slow" />
        </div>
        <div class="card">
          <h2>Failing targets</h2>
          <Targets targets={usage?.failing} empty="No failures in 30 days." kind="failing" />
        </div>
      </div>
      <div class="card">
        <div class="row spread">
          <h2>Recent requests</h2>
          <a href={href.requests()}>All requests</a>
        </div>
        {recent && recent.length === 0 && (
          <p class="muted">
            No requests yet. Try one in the <a href={href.playground()}>Playground</a>.
          </p>
        )}
        {recent && recent.length > 0 && <LogTable records={recent} testId="recent-table" />}
      </div>
    </section>
  );
}

function Outcomes({ usage, total }: { usage: Usage | null; total: number }) {
  if (!usage) return null;
  const parts = [
    ['success', 'succeeded', usage.outcomes.success],
    ['failed', 'failed', usage.outcomes.failed],
    ['pending', 'pending', usage.outcomes.pending],
  ] as const;
  return (
    <>
      <div class="outcome-bar" aria-hidden="true">
        {parts.map(([key, , n]) =>
          n > 0 ? (
            <span key={key} class={`seg ${key}`} style={{ flexGrow: n / Math.max(1, total) }} />
          ) : null,
        )}
      </div>
      <ul class="outcomes" data-testid="overview-outcomes">
        {parts.map(([key, label, n]) => (
          <li key={key}>
            <span class={`dot ${key}`} aria-hidden="true" />
            {n.toLocaleString()} {label}
          </li>
        ))}
      </ul>
    </>
  );
}

function Targets({
  targets,
  empty,
  kind,
}: {
  targets: TargetFigure[] | undefined;
  empty: string;
  kind: 'slow' | 'failing';
}) {
  if (!targets) return null;
  if (targets.length === 0) return <p class="muted">{empty}</p>;
  return (
    <table class="compact" data-testid={`targets-${kind}`}>
      <thead>
        <tr>
          <th scope="col">Host</th>
          <th scope="col">{kind === 'slow' ? 'Mean time' : 'Failed'}</th>
          <th scope="col">Requests</th>
        </tr>
      </thead>
      <tbody>
        {targets.map((t) => (
          <tr key={t.host}>
            <td class="break">
              <a
                href={href.requests(
                  new URLSearchParams(
                    kind === 'failing' ? { host: t.host, status: 'failed' } : { host: t.host },
                  ),
                )}
                title={kind === 'failing' ? (t.error ?? undefined) : undefined}
              >
                {t.host}
              </a>
            </td>
            <td class="nowrap">{kind === 'slow' ? formatMs(t.avgMs) : t.failed}</td>
            <td>{t.requests}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
