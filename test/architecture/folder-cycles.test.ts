import assert from 'node:assert/strict';
import { test } from 'node:test';
import { folderCycles, folderGraph, topLevelOf } from './folder-cycles.js';

const edges = (...pairs: [string, string][]) => pairs.map(([from, to]) => ({ from, to }));

test('a file belongs to its folder under src/, or is its own part at the top', () => {
  assert.equal(topLevelOf('src/scrape/engines/browser/index.ts'), 'scrape');
  assert.equal(topLevelOf('src/errors.ts'), 'errors.ts');
  assert.equal(topLevelOf('node_modules/fastify/fastify.js'), null);
});

test('imports inside one folder and imports of packages make no folder edge', () => {
  const graph = folderGraph(
    edges(
      ['src/store/db.ts', 'src/store/migrations/index.ts'],
      ['src/store/migrations/index.ts', 'src/store/db.ts'],
      ['src/store/db.ts', 'node_modules/kysely/dist/cjs/index.js'],
    ),
  );
  assert.deepEqual(folderCycles(graph), []);
  assert.equal(graph.size, 0);
});

test('folders that import each other through different files form a cycle', () => {
  const graph = folderGraph(
    edges(
      ['src/scrape/plan.ts', 'src/billing/pricing.ts'],
      ['src/billing/x.ts', 'src/scrape/types.ts'],
    ),
  );
  assert.deepEqual(folderCycles(graph), [['billing', 'scrape', 'billing']]);
  assert.deepEqual(graph.get('billing')?.get('scrape'), [
    { from: 'src/billing/x.ts', to: 'src/scrape/types.ts' },
  ]);
});

test('a loop through three folders is found once, from its first folder alphabetically', () => {
  const graph = folderGraph(
    edges(
      ['src/store/a.ts', 'src/jobs/b.ts'],
      ['src/jobs/b.ts', 'src/api/c.ts'],
      ['src/api/c.ts', 'src/store/d.ts'],
    ),
  );
  assert.deepEqual(folderCycles(graph), [['api', 'store', 'jobs', 'api']]);
});

test('every cycle is listed, and an edge on no cycle is not', () => {
  const graph = folderGraph(
    edges(
      ['src/api/a.ts', 'src/scrape/a.ts'],
      ['src/scrape/a.ts', 'src/api/b.ts'],
      ['src/api/a.ts', 'src/workflows/a.ts'],
      ['src/workflows/a.ts', 'src/api/c.ts'],
      ['src/workflows/a.ts', 'src/store/a.ts'],
      ['src/main.ts', 'src/api/a.ts'],
    ),
  );
  assert.deepEqual(folderCycles(graph), [
    ['api', 'scrape', 'api'],
    ['api', 'workflows', 'api'],
  ]);
});

test('a graph without a loop has no cycle', () => {
  const graph = folderGraph(
    edges(
      ['src/main.ts', 'src/api/a.ts'],
      ['src/api/a.ts', 'src/scrape/a.ts'],
      ['src/scrape/a.ts', 'src/errors.ts'],
    ),
  );
  assert.deepEqual(folderCycles(graph), []);
});
