/**
 * A bounded closed-loop load generator on undici: `connections` workers, each sending its
 * next request when the previous answer's body is read, for a warm-up then a fixed window.
 * Loopback only; it stops by itself. Used by every HTTP benchmark so ratios compare alike.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Pool } from 'undici';

export interface LoadOptions {
  /** Absolute URL on 127.0.0.1. */
  url: string;
  connections: number;
  /** Measured window. */
  durationMs: number;
  /** Unmeasured warm-up before the window. Default 1000. */
  warmupMs?: number;
  headers?: Record<string, string>;
}

export interface LoadResult {
  requests: number;
  /** Every request sent, warm-up included (for per-request CPU). */
  sent: number;
  /** Answers other than 200 (or transport errors) during the window. */
  errors: number;
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) {
    throw new Error(`benchmarks send traffic to loopback only, not ${target.hostname}`);
  }
  const pool = new Pool(target.origin, { connections: options.connections, pipelining: 1 });
  const path = target.pathname + target.search;
  const warmupEnd = Date.now() + (options.warmupMs ?? 1000);
  const end = warmupEnd + options.durationMs;
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  let windowStart = 0;
  const worker = async () => {
    while (Date.now() < end) {
      const started = performance.now();
      let ok = false;
      try {
        const answer = await pool.request({
          method: 'GET',
          path,
          ...(options.headers ? { headers: options.headers } : {}),
        });
        await answer.body.arrayBuffer();
        ok = answer.statusCode === 200;
      } catch {
        ok = false;
      }
      sent++;
      const now = Date.now();
      if (now < warmupEnd || now > end) continue;
      if (!windowStart) windowStart = now;
      if (ok) latencies.push(performance.now() - started);
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  await pool.close();
  latencies.sort((a, b) => a - b);
  const seconds = options.durationMs / 1000;
  return {
    requests: latencies.length,
    sent,
    errors,
    rps: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p90Ms: percentile(latencies, 90),
    p99Ms: percentile(latencies, 99),
  };
}

/** The 1/5/15-minute load averages, printed with every table (the machine is shared). */
export function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc: per-request CPU of a
 * server is steadier than its requests/s on a shared machine.
 */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime) are at 11 and 12 after the command name.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
