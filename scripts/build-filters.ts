/**
 * Build step: compiles the shipped filter lists into serialised @ghostery/adblocker engines so
 * that start-up only deserialises them (~40 ms instead of seconds of parsing).
 *
 *   node --import tsx scripts/build-filters.ts [outDir = build/filters]
 *
 * Writes ads.bin (AdGuard Base + Tracking Protection), cookies.bin (Cookie Notices) and
 * manifest.json. Skips work when every output is newer than the ruleset files. Offline: reads
 * only what npm installed.
 */
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FiltersEngine } from '@ghostery/adblocker';
import type { EngineName, FilterManifest } from '../src/scrape/blockers/filter-engines.js';
import {
  ENGINE_LISTS,
  parseListHeader,
  readRawFilterList,
  rulesetFile,
} from './filters/filter-lists.js';
import { stripLocalHostExceptions } from './filters/local-host-exceptions.js';

const ENGINE_NAMES = Object.keys(ENGINE_LISTS) as EngineName[];

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function upToDate(outDir: string): boolean {
  const outputs = [
    ...ENGINE_NAMES.map((n) => join(outDir, `${n}.bin`)),
    join(outDir, 'manifest.json'),
  ];
  const inputs = ENGINE_NAMES.flatMap((n) => ENGINE_LISTS[n].map((l) => rulesetFile(l.id)));
  // The build's own code and the engine format (a ghostery upgrade changes it) count as inputs.
  for (const code of [
    './filters/filter-lists.ts',
    './filters/local-host-exceptions.ts',
    import.meta.url,
  ]) {
    inputs.push(fileURLToPath(new URL(code, import.meta.url)));
  }
  inputs.push(fileURLToPath(import.meta.resolve('@ghostery/adblocker')));
  const oldestOutput = Math.min(...outputs.map(mtime));
  return oldestOutput > 0 && oldestOutput > Math.max(...inputs.map(mtime));
}

/** Write-then-rename: concurrent builds (parallel test files) never expose a half-written file. */
function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

function build(outDir: string): void {
  mkdirSync(outDir, { recursive: true });
  const manifest: FilterManifest = { builtAt: new Date().toISOString(), engines: {} };
  for (const name of ENGINE_NAMES) {
    const started = performance.now();
    const texts: string[] = [];
    const lists: FilterManifest['engines'][string]['lists'] = [];
    for (const source of ENGINE_LISTS[name]) {
      const raw = readRawFilterList(source.id);
      const { text, dropped } = stripLocalHostExceptions(raw);
      const header = parseListHeader(raw);
      texts.push(text);
      lists.push({
        id: source.id,
        title: header.title || source.name,
        version: header.version,
        timeUpdated: header.timeUpdated,
        license: `GPL-3.0 (${header.license})`,
        homepage: header.homepage,
        droppedLocalHostExceptions: dropped,
      });
    }
    const engine = FiltersEngine.parse(texts.join('\n'), {
      loadNetworkFilters: true,
      loadCosmeticFilters: true,
      loadGenericCosmeticsFilters: true,
    });
    const bytes = engine.serialize();
    writeAtomic(join(outDir, `${name}.bin`), bytes);
    const { networkFilters, cosmeticFilters } = engine.getFilters();
    manifest.engines[name] = {
      lists,
      networkFilters: networkFilters.length,
      cosmeticFilters: cosmeticFilters.length,
      bytes: bytes.length,
      buildMs: Math.round(performance.now() - started),
    };
    console.log(
      `build-filters: ${name}: ${networkFilters.length} network + ${cosmeticFilters.length} cosmetic filters, ${bytes.length} bytes, ${manifest.engines[name].buildMs} ms`,
    );
  }
  // The manifest goes last: its presence marks a complete build.
  writeAtomic(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

const outDir = resolve(process.argv[2] ?? 'build/filters');
if (upToDate(outDir)) {
  console.log(`build-filters: ${outDir} is up to date`);
} else {
  build(outDir);
}
