/**
 * Compares two V8 heap snapshots (the soak's warm-up and end ones) by constructor: count and
 * self size per (node type, name), sorted by the growth in bytes. With --retainers NAME, also
 * lists what holds the objects named NAME in the second snapshot (retainer name, edge name).
 *   node --import tsx bench/lib/heap-diff.ts a.heapsnapshot b.heapsnapshot [--top 30] [--retainers Foo]
 * Bench-only tool; self sizes, not retained sizes (enough to see what accumulates).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[] };
    meta_edge_types?: never;
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Parsed {
  raw: Snapshot;
  nodeSize: number;
  typeOf(i: number): string;
  nameOf(i: number): string;
  selfSize(i: number): number;
}

function parse(path: string): Parsed {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const fields = raw.snapshot.meta.node_fields;
  const nodeSize = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = raw.snapshot.meta.node_types[0];
  return {
    raw,
    nodeSize,
    typeOf: (i) => types[raw.nodes[i + typeAt]!] ?? '?',
    nameOf: (i) => raw.strings[raw.nodes[i + nameAt]!] ?? '?',
    selfSize: (i) => raw.nodes[i + sizeAt]!,
  };
}

/** Strings and numbers are grouped by type only: their "names" are their values. */
function groupKey(p: Parsed, i: number): string {
  const type = p.typeOf(i);
  if (
    type === 'string' ||
    type === 'number' ||
    type === 'concatenated string' ||
    type === 'sliced string'
  )
    return `(${type})`;
  const name = p.nameOf(i);
  return `${type}:${name.length > 60 ? `${name.slice(0, 57)}...` : name}`;
}

function tally(p: Parsed): Map<string, { count: number; bytes: number }> {
  const groups = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < p.raw.nodes.length; i += p.nodeSize) {
    const key = groupKey(p, i);
    const g = groups.get(key) ?? { count: 0, bytes: 0 };
    g.count += 1;
    g.bytes += p.selfSize(i);
    groups.set(key, g);
  }
  return groups;
}

function retainers(p: Parsed, target: string, top: number): void {
  const edgeFields = p.raw.snapshot.meta.edge_fields;
  const edgeSize = edgeFields.length;
  const toAt = edgeFields.indexOf('to_node');
  const nameAt = edgeFields.indexOf('name_or_index');
  const typeAt = edgeFields.indexOf('type');
  const edgeTypes = (p.raw.snapshot.meta as unknown as { edge_types: [string[]] }).edge_types[0];
  const countAt = p.raw.snapshot.meta.node_fields.indexOf('edge_count');
  const by = new Map<string, number>();
  let edge = 0;
  for (let i = 0; i < p.raw.nodes.length; i += p.nodeSize) {
    const count = p.raw.nodes[i + countAt]!;
    for (let e = 0; e < count; e++, edge += edgeSize) {
      const to = p.raw.edges[edge + toAt]!;
      if (p.nameOf(to) !== target) continue;
      const type = edgeTypes[p.raw.edges[edge + typeAt]!] ?? '?';
      if (type === 'weak') continue;
      const name =
        type === 'element' || type === 'hidden'
          ? `[${type}]`
          : (p.raw.strings[p.raw.edges[edge + nameAt]!] ?? '?');
      const key = `${groupKey(p, i)} --${name}-->`;
      by.set(key, (by.get(key) ?? 0) + 1);
    }
  }
  console.log(`\nretainers of ${target} (second snapshot):`);
  for (const [key, count] of [...by].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${String(count).padStart(8)}  ${key}`);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '30' },
    retainers: { type: 'string', multiple: true },
  },
});
const [beforePath, afterPath] = positionals;
if (!beforePath || !afterPath)
  throw new Error('usage: heap-diff.ts before.heapsnapshot after.heapsnapshot');
const top = Number(values.top);
const before = tally(parse(beforePath));
const afterParsed = parse(afterPath);
const after = tally(afterParsed);
const rows = [...new Set([...before.keys(), ...after.keys()])].map((key) => {
  const a = before.get(key) ?? { count: 0, bytes: 0 };
  const b = after.get(key) ?? { count: 0, bytes: 0 };
  return { key, count: b.count - a.count, bytes: b.bytes - a.bytes, total: b.bytes };
});
const sum = (m: Map<string, { bytes: number }>) => [...m.values()].reduce((s, g) => s + g.bytes, 0);
console.log(
  `heap: ${(sum(before) / 1048576).toFixed(1)} → ${(sum(after) / 1048576).toFixed(1)} MiB (self sizes)`,
);
console.log('   Δ bytes   Δ count    end bytes  group');
for (const r of rows.sort((x, y) => y.bytes - x.bytes).slice(0, top))
  console.log(
    `${String(r.bytes).padStart(10)} ${String(r.count).padStart(9)} ${String(r.total).padStart(12)}  ${r.key}`,
  );
console.log('\nlargest growth by count:');
for (const r of rows.sort((x, y) => y.count - x.count).slice(0, top))
  console.log(`${String(r.count).padStart(9)} ${String(r.bytes).padStart(10)}  ${r.key}`);
for (const name of values.retainers ?? []) retainers(afterParsed, name, top);
