/**
 * Where a `node --cpu-prof` profile's time went, as text: the functions with the most self
 * time, and the service's own functions (paths under dist/ or src/) with the most inclusive
 * time (their callees counted), each as a share of all samples, idle excluded.
 *   node --import tsx bench/lib/cpu-profile-summary.ts <file.cpuprofile> [rows, 25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  name: string;
  ms: number;
  share: number;
}

const IDLE = new Set(['(idle)', '(program)']);

/** The service's own code: the built dist/ or the sources, not a dependency's dist/. */
const ownCode = (url: string) => !url.includes('/node_modules/') && /\/(dist|src)\//.test(url);

function frameName({ callFrame }: ProfileNode): string {
  const { url } = callFrame;
  const dependency = url.lastIndexOf('/node_modules/');
  const file =
    dependency >= 0 ? url.slice(dependency + 1) : url.replace(/^.*?\/(dist|src)\//, '$1/');
  const where = file ? ` ${file}:${callFrame.lineNumber + 1}` : '';
  return `${callFrame.functionName || '(anonymous)'}${where}`;
}

export function summarizeProfile(path: string, rows = 25) {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busyUs = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id) as ProfileNode;
    const us = profile.timeDeltas[i] ?? 0;
    if (IDLE.has(node.callFrame.functionName)) return;
    busyUs += us;
    const name = frameName(node);
    self.set(name, (self.get(name) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at) as ProfileNode;
      if (!ownCode(frame.callFrame.url)) continue;
      const key = frameName(frame);
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + us);
      seen.add(key);
    }
  });
  const top = (table: Map<string, number>): ProfileShare[] =>
    [...table]
      .sort((a, b) => b[1] - a[1])
      .slice(0, rows)
      .map(([name, us]) => ({ name, ms: us / 1000, share: us / busyUs }));
  return { busyMs: busyUs / 1000, self: top(self), inclusive: top(inclusive) };
}

export function printProfileSummary(path: string, rows = 25): void {
  const { busyMs, self, inclusive } = summarizeProfile(path, rows);
  const line = (row: ProfileShare) =>
    `  ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.ms.toFixed(0).padStart(7)} ms  ${row.name}`;
  console.log(`${path}: ${busyMs.toFixed(0)} ms busy`);
  console.log('self time:');
  for (const row of self) console.log(line(row));
  console.log("the service's functions, inclusive time:");
  for (const row of inclusive) console.log(line(row));
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  printProfileSummary(process.argv[2] as string, Number(process.argv[3] ?? 25));
}
