import type { Usage } from '../api/types.js';

const W = 600;
const H = 160;
const PAD = { top: 6, right: 0, bottom: 0, left: 0 };

/** A round upper bound for the axis: 1, 2 or 5 times a power of ten. */
function niceMax(n: number): number {
  if (n <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(n));
  return ([1, 2, 5, 10].find((m) => m * p >= n) ?? 10) * p;
}

const shortDate = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/**
 * Credits used per day as bars, drawn by hand in SVG (lighter than any chart library, and
 * no CDN): one bar per UTC day, a hover title each, the same figures as a table for screen
 * readers and anyone who prefers numbers.
 */
export function UsageChart({ days }: { days: Usage['days'] }) {
  const max = niceMax(Math.max(...days.map((d) => d.credits)));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = plotW / Math.max(1, days.length);
  const barW = Math.max(2, step * 0.7);
  const total = days.reduce((sum, d) => sum + d.credits, 0);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const labelled = [0, Math.floor(days.length / 2), days.length - 1];
  return (
    <figure class="chart" data-testid="usage-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby="usage-chart-title"
        preserveAspectRatio="none"
      >
        <title id="usage-chart-title">
          Credits used per day over the last {days.length} days: {total} in all
        </title>
        {[0, max / 2, max].map((v) => (
          <line
            key={v}
            class="grid"
            x1={PAD.left}
            x2={W - PAD.right}
            y1={y(v)}
            y2={y(v)}
            vector-effect="non-scaling-stroke"
          />
        ))}
        {days.map((d, i) => {
          const h = (d.credits / max) * plotH;
          return (
            <rect
              key={d.date}
              class="bar"
              data-testid="usage-bar"
              x={PAD.left + i * step + (step - barW) / 2}
              y={PAD.top + plotH - h}
              width={barW}
              height={Math.max(0, h)}
            >
              <title>
                {shortDate(d.date)}: {d.credits} credits, {d.requests} requests
                {d.failed ? `, ${d.failed} failed` : ''}
              </title>
            </rect>
          );
        })}
      </svg>
      {/* Axis labels in HTML: SVG text would stretch with the chart's width. */}
      <div class="chart-y" aria-hidden="true">
        <span>{max}</span>
        <span>0</span>
      </div>
      <div class="chart-x" aria-hidden="true">
        {labelled.map((i) => (
          <span key={i}>{days[i] ? shortDate(days[i].date) : ''}</span>
        ))}
      </div>
      <details class="chart-table">
        <summary>Show as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Credits</th>
              <th scope="col">Requests</th>
              <th scope="col">Failed</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <td>{d.date}</td>
                <td>{d.credits}</td>
                <td>{d.requests}</td>
                <td>{d.failed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
