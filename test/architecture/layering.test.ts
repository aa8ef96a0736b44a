/**
 * The layering of src/, enforced: no import cycle between files or between top-level
 * folders, the layer order ARCHITECTURE.md draws (every part imports only the layers below
 * it), HTTP only in the doors, errors.ts at the bottom, storage below everything that uses it. The rules are in .dependency-cruiser.cjs; type-only imports count. Each failure
 * lists every offending import (from → to) so a reader sees what to fix.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { before, test } from 'node:test';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { type FileEdge, folderCycles, folderGraph } from './folder-cycles.js';

const root = join(import.meta.dirname, '..', '..');
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs');

let result: ICruiseResult;

before(async () => {
  const { output } = await cruise(
    ['src'],
    { ...config.options, baseDir: root, validate: true, ruleSet: { forbidden: config.forbidden } },
    {},
    { tsConfig: extractTSConfig(join(root, config.options.tsConfig.fileName)) },
  );
  result = output as ICruiseResult;
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

function violationsOf(rule: string): IViolation[] {
  return result.summary.violations.filter((v) => v.rule.name === rule);
}

/** One line per violation; a cycle is shown whole. */
function report(rule: string): string {
  const found = violationsOf(rule);
  const lines = found.map((v) =>
    v.cycle?.length
      ? `  ${[v.from, ...v.cycle.map((step) => step.name)].join(' → ')}`
      : `  ${v.from} → ${v.to}`,
  );
  const comment = config.forbidden.find((r: { name: string }) => r.name === rule)?.comment;
  return `${found.length} violation(s) of ${rule} (${comment}):\n${lines.join('\n')}`;
}

/** A folder step's file imports: all when few, else the first two and how many more. */
function imports(edges: FileEdge[]): string {
  const shown = edges.length <= 3 ? edges : edges.slice(0, 2);
  const more = edges.length - shown.length;
  const list = shown.map((e) => `${e.from} → ${e.to}`).join(', ');
  return more ? `${list} and ${more} more` : list;
}

test('the cruise sees every file of src/ and resolves every import of the project', () => {
  const cruised = result.modules.map((m) => m.source).filter((s) => s.startsWith('src/'));
  assert.deepEqual(cruised.sort(), sourceFiles(join(root, 'src')).sort());
  // A file import it cannot resolve would be an edge it silently leaves out of every rule.
  // (Packages are only matched by name, which works resolved or not.)
  const unresolved = result.modules.flatMap((m) =>
    m.dependencies
      .filter((d) => d.couldNotResolve && d.module.startsWith('.'))
      .map((d) => `  ${m.source} → ${d.module}`),
  );
  assert.equal(unresolved.length, 0, `unresolved imports:\n${unresolved.join('\n')}`);
});

test('no file of src/ reaches itself through its imports', () => {
  assert.equal(violationsOf('no-cycle').length, 0, report('no-cycle'));
});

test('no two top-level folders of src/ import each other, directly or around a loop', () => {
  const edges: FileEdge[] = result.modules.flatMap((m) =>
    m.dependencies.map((d) => ({ from: m.source, to: d.resolved })),
  );
  const graph = folderGraph(edges);
  const cycles = folderCycles(graph);
  const lines = cycles.flatMap((cycle) => [
    `  ${cycle.join(' → ')}`,
    ...cycle.slice(0, -1).map((from, i) => {
      const to = cycle[i + 1] as string;
      return `      ${from} → ${to}: ${imports(graph.get(from)?.get(to) ?? [])}`;
    }),
  ]);
  assert.equal(
    cycles.length,
    0,
    `${cycles.length} cycle(s) between top-level folders of src/:\n${lines.join('\n')}`,
  );
});

test('every top-level folder and file of src/ has its place in the layers', () => {
  const parts = readdirSync(join(root, 'src'), { withFileTypes: true }).map((entry) =>
    entry.isDirectory() ? `src/${entry.name}/` : `src/${entry.name}`,
  );
  const placed = config.forbidden
    .filter((rule: { name: string }) => rule.name === 'layers-point-down')
    .map((rule: { from: { path: string } }) => new RegExp(rule.from.path));
  const unplaced = parts.filter((part) => !placed.some((path: RegExp) => path.test(part)));
  assert.deepEqual(unplaced, [], 'parts missing from LAYERS in .dependency-cruiser.cjs');
});

test('layers point down only: no part imports one beside or above it', () => {
  const rules = ['layers-point-down', 'models-use-only-billing-and-store'];
  const found = rules.flatMap(violationsOf);
  assert.equal(found.length, 0, rules.map(report).join('\n'));
});

test('only the doors (api/, compose/, cli/, main.ts) import from src/api/', () => {
  assert.equal(violationsOf('api-only-from-doors').length, 0, report('api-only-from-doors'));
});

test('only the doors import fastify or @fastify/*', () => {
  assert.equal(violationsOf('fastify-only-in-doors').length, 0, report('fastify-only-in-doors'));
});

test('src/errors.ts imports nothing from the project', () => {
  assert.equal(violationsOf('errors-is-the-bottom').length, 0, report('errors-is-the-bottom'));
});

test('src/store/ imports nothing from scrape, workflows, billing, accounts, jobs or api', () => {
  assert.equal(
    violationsOf('store-below-the-pipeline').length,
    0,
    report('store-below-the-pipeline'),
  );
});

test('outbound requests go through the one HTTP client (only it imports undici)', () => {
  assert.equal(violationsOf('one-http-client').length, 0, report('one-http-client'));
  assert.equal(
    violationsOf('fetch-internals-stay-in-scrape').length,
    0,
    report('fetch-internals-stay-in-scrape'),
  );
});

test('only the composition root builds the HTTP client, job queue, proxy pools, list cache', () => {
  assert.equal(
    violationsOf('parts-built-by-the-root').length,
    0,
    report('parts-built-by-the-root'),
  );
});

test('nothing outside src/billing/ moves credits but through billing/credits.ts', () => {
  assert.equal(
    violationsOf('credits-move-in-billing').length,
    0,
    report('credits-move-in-billing'),
  );
});
