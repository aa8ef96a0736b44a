/**
 * Human-readable log lines for a terminal (LOG_FORMAT=pretty, or auto on a TTY): pino's JSON
 * lines turned into `12:03:04.567 INFO  GET /api/account 200 3.1 ms` and
 * `12:03:05.001 WARN  refunded abandoned reservations refunded=2`. Anything else (a file,
 * a pipe, a log collector) keeps JSON. A line that is not JSON passes through unchanged.
 */
import { Writable } from 'node:stream';

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};
const COLOURS: Record<number, string> = { 40: '\u001b[33m', 50: '\u001b[31m', 60: '\u001b[31m' };
const RESET = '\u001b[0m';
const DIM = '\u001b[2m';
/** Fields every line has or that the line's own text already shows. */
const SHOWN = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'reqId',
  'req',
  'statusCode',
  'responseTime',
]);

function value(v: unknown): string {
  if (typeof v === 'string') return /\s/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

export function formatLogLine(json: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const level = Number(entry.level);
  const time = new Date(Number(entry.time ?? Date.now())).toISOString().slice(11, 23);
  const req = entry.req as { method?: string; url?: string } | undefined;
  let text = String(entry.msg ?? '');
  if (req && entry.statusCode !== undefined) {
    text = `${req.method} ${req.url} ${entry.statusCode} ${entry.responseTime} ms`;
    if (entry.msg === 'request errored') text += ' (errored)';
  }
  const extra = Object.entries(entry)
    .filter(([k]) => !SHOWN.has(k))
    .map(([k, v]) => {
      if (k === 'err' && v && typeof v === 'object') {
        const err = v as { message?: string; stack?: string };
        return `\n  ${err.stack ?? err.message ?? value(v)}`;
      }
      return `${k}=${value(v)}`;
    })
    .join(' ');
  const name = LEVELS[level] ?? String(level);
  const tone = colour ? (COLOURS[level] ?? '') : '';
  const head = colour
    ? `${DIM}${time}${RESET} ${tone}${name}${tone ? RESET : ''}`
    : `${time} ${name}`;
  return `${head} ${text}${extra ? ` ${extra}` : ''}`;
}

/** A pino destination writing the formatted lines to `out`. */
export function prettyLogStream(
  out: NodeJS.WritableStream & { isTTY?: boolean },
  colour = Boolean(out.isTTY),
): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line) out.write(`${formatLogLine(line, colour)}\n`);
      done();
    },
  });
}
