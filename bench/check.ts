/**
 * The guard against slow creep (issue 26): runs each headline bench briefly, takes its ratio
 * and prints it beside the last figure recorded (bench/recorded.json, which mirrors
 * BENCHMARKS.md), flagging any more than 15% worse. Timings are noisy on a shared machine, so
 * this is run by hand before an issue is resolved, never in CI; a flag asks for a longer run of
 * that bench, not a verdict. Exit code 1 when anything is flagged or a bench failed.
 *   npm run bench:check            (builds dist/ first; about 4 minutes)
 *   node --import tsx bench/check.ts [--only <name substring>]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { only: { type: 'string' } } });

interface Headline {
  name: string;
  /** The bench and its brief arguments. */
  args: string[];
  /** Finds the ratio in the bench's output. */
  ratio(output: string): number | null;
}

const number = (text: string | undefined) => (text === undefined ? null : Number(text));

export const HEADLINES: Headline[] = [
  {
    name: 'plain scrape / bare proxy, concurrency 8, SQLite on disk',
    args: ['scrape-fetch.ts', '--seconds', '3', '--levels', '8', '--tmpfs', 'false'],
    ratio: (out) =>
      number(/\| service, DATA_DIR on disk \| 8 \| [\d.]+ \| ([\d.]+) \|/.exec(out)?.[1]),
  },
  {
    name: 'Markdown scrape / bare turndown-in-a-worker proxy, concurrency 8, SQLite on disk',
    // --markdown warms each server 6 s first: the steady state, not the workers' start-up
    args: ['scrape-fetch.ts', '--seconds', '3', '--levels', '8', '--tmpfs', 'false', '--markdown'],
    ratio: (out) =>
      number(/\| service, DATA_DIR on disk \| 8 \| [\d.]+ \| ([\d.]+) \|/.exec(out)?.[1]),
  },
  {
    name: 'render html / bare Playwright loop, concurrency 2',
    args: ['scrape-render.ts', '6', '2'],
    ratio: (out) => number(/route html \/ bare throughput: c=2: ([\d.]+)x/.exec(out)?.[1]),
  },
  {
    name: 'Firecrawl door / native, render=false (door-undici)',
    args: [
      'firecrawl-door.ts',
      ...['--modes', 'fetch', '--arms', 'door-undici', '--rounds', '1', '--seconds', '3'],
    ],
    ratio: (out) => number(/\| door-undici \(÷ [^)]+\) \| [^|]+\| ([\d.]+) /.exec(out)?.[1]),
  },
  {
    name: 'fetched crawl / CheerioCrawler, 1,000 pages, concurrency 8',
    args: ['crawl.ts', '--modes', 'fetch', '--pages', '1000', '--rounds', '1'],
    ratio: (out) => number(/^fetch: ratio median ([\d.]+)/m.exec(out)?.[1]),
  },
];

/** A ratio is flagged when it is this much below its recorded figure. */
export const TOLERANCE = 0.15;

export function verdict(measured: number, recorded: number): 'ok' | 'WORSE' {
  return measured < recorded * (1 - TOLERANCE) ? 'WORSE' : 'ok';
}

function runBench(args: string[]): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, ...args.slice(0, 1)), ...args.slice(1)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('close', (code) => resolve({ output, code }));
  });
}

async function main(): Promise<void> {
  const recorded = (
    JSON.parse(readFileSync(join(import.meta.dirname, 'recorded.json'), 'utf8')) as {
      ratios: Record<string, { recorded: number }>;
    }
  ).ratios;
  const chosen = HEADLINES.filter((h) => !values.only || h.name.includes(values.only));
  let flagged = 0;
  const rows: string[] = [];
  for (const headline of chosen) {
    const started = Date.now();
    const { output, code } = await runBench(headline.args);
    const measured = headline.ratio(output);
    const last = recorded[headline.name]?.recorded;
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    let mark: string;
    if (measured === null || code !== 0) {
      mark = `FAILED (exit ${code}; output ends: ${output.trim().split('\n').slice(-2).join(' / ')})`;
      flagged++;
    } else if (last === undefined) mark = 'no recorded figure';
    else {
      mark = verdict(measured, last);
      if (mark === 'WORSE') flagged++;
    }
    const row = `| ${headline.name} | ${measured?.toFixed(3) ?? '-'} | ${last ?? '-'} | ${mark} | ${seconds} s | node --import tsx bench/${headline.args.join(' ')} |`;
    rows.push(row);
    console.log(row);
  }
  console.log(
    `\nbench:check, ${new Date().toISOString()}, flagged when more than ${TOLERANCE * 100}% below the recorded figure`,
  );
  console.log('| headline | measured | recorded | verdict | took | command |');
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  process.exitCode = flagged > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) await main();
