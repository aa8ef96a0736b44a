import type { Usage } from '../api/types.js';

const W = 600;
const H = 170;
const PAD = { top: 12, right: 8, bottom: 24, left: 40 };

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
          <g key={v}>
            <line class="grid" x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} />
            <text class="axis" x={PAD.left - 6} y={y(v) + 4} text-anchor="end">
              {v}
            </text>
          </g>
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
        {labelled.map((i) => {
          const d = days[i];
          if (!d) return null;
          return (
            <text
              key={d.date}
              class="axis"
              x={PAD.left + i * step + step / 2}
              y={H - 6}
              text-anchor={i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle'}
            >
              {shortDate(d.date)}
            </text>
          );
        })}
      </svg>
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
