/**
 * Cycles between the top-level parts of src/ (its folders, and the files that sit at the top:
 * errors.ts, config.ts, main.ts). dependency-cruiser finds file cycles only; two folders can
 * import each other through different files without any file cycle, so this is checked here,
 * on the file edges the cruise found.
 */

export interface FileEdge {
  from: string;
  to: string;
}

/** For each top-level part, the parts it imports and the file edges that make each step. */
export type FolderGraph = Map<string, Map<string, FileEdge[]>>;

/** `src/scrape/plan.ts` → `scrape`, `src/errors.ts` → `errors.ts`; null outside src/. */
export function topLevelOf(path: string): string | null {
  const match = /^src\/([^/]+)/.exec(path);
  return match?.[1] ?? null;
}

/** The graph of top-level parts; edges inside one part and edges leaving src/ are dropped. */
export function folderGraph(edges: Iterable<FileEdge>): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const edge of edges) {
    const from = topLevelOf(edge.from);
    const to = topLevelOf(edge.to);
    if (!from || !to || from === to) continue;
    const targets = graph.get(from) ?? new Map<string, FileEdge[]>();
    graph.set(from, targets);
    targets.set(to, [...(targets.get(to) ?? []), edge]);
  }
  return graph;
}

/** The shortest path of parts from `start` to `goal` (breadth first), or null if none. */
function shortestPath(graph: FolderGraph, start: string, goal: string): string[] | null {
  const cameFrom = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as string;
    if (node === goal) {
      const path = [node];
      for (let prev = cameFrom.get(node); prev; prev = cameFrom.get(prev)) path.unshift(prev);
      return path;
    }
    for (const next of [...(graph.get(node)?.keys() ?? [])].sort()) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, node);
      queue.push(next);
    }
  }
  return null;
}

/**
 * Every edge that lies on a cycle, closed by the shortest way back: each cycle once, as a
 * path that starts and ends at its alphabetically first part (`['api', 'scrape', 'api']`).
 * Fixing what they list leaves no cycle, since an edge on no cycle can never close one.
 */
export function folderCycles(graph: FolderGraph): string[][] {
  const found = new Map<string, string[]>();
  for (const [from, targets] of graph) {
    for (const to of targets.keys()) {
      const back = shortestPath(graph, to, from);
      if (!back) continue;
      const loop = [from, ...back]; // from → to → … → from
      const ring = loop.slice(0, -1);
      const first = ring.indexOf([...ring].sort()[0] as string);
      const rotated = [...ring.slice(first), ...ring.slice(0, first)];
      const cycle = [...rotated, rotated[0] as string];
      found.set(cycle.join(' → '), cycle);
    }
  }
  return [...found.keys()].sort().map((key) => found.get(key) as string[]);
}
