/**
 * Where the blockers' filter lists come from. No npm package ships plain EasyList, but
 * `@adguard/dnr-rulesets` (GPL-3.0 data, AdGuard Filters licence) carries each AdGuard list's
 * raw text in `metadata.rawFilterList` of the first rule of `ruleset_<id>.json`. The ids are
 * AdGuard's filter ids: 2 Base (EasyList + AdGuard English), 3 Tracking Protection, 18 Cookie
 * Notices. Read at build time only (scripts/build-filters.ts); nothing is downloaded.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineName } from '../../src/scrape/blockers/filter-engines.js';

export interface ListSource {
  /** AdGuard filter id, also the dnr-rulesets folder suffix. */
  id: number;
  name: string;
}

/** Which lists each engine is built from. */
export const ENGINE_LISTS: Record<EngineName, readonly ListSource[]> = {
  ads: [
    { id: 2, name: 'AdGuard Base filter' },
    { id: 3, name: 'AdGuard Tracking Protection filter' },
  ],
  cookies: [{ id: 18, name: 'AdGuard Cookie Notices filter' }],
};

export interface ListHeader {
  title: string;
  version: string;
  timeUpdated: string;
  license: string;
  homepage: string;
}

/** The installed @adguard/dnr-rulesets package directory (its exports map hides package.json). */
function dnrRulesetsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.resolve('@adguard/dnr-rulesets')));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('@adguard/dnr-rulesets: package.json not found');
    dir = up;
  }
  return dir;
}

export function rulesetFile(id: number, packageDir = dnrRulesetsDir()): string {
  return join(packageDir, 'dist', 'filters', 'declarative', `ruleset_${id}`, `ruleset_${id}.json`);
}

/** The raw filter list text stored in a ruleset file. */
export function readRawFilterList(id: number, packageDir = dnrRulesetsDir()): string {
  const rules = JSON.parse(readFileSync(rulesetFile(id, packageDir), 'utf8')) as Array<{
    metadata?: { rawFilterList?: unknown };
  }>;
  const raw = rules[0]?.metadata?.rawFilterList;
  if (typeof raw !== 'string' || raw.length === 0) {
    throw new Error(`ruleset_${id}: no metadata.rawFilterList in ${rulesetFile(id, packageDir)}`);
  }
  return raw;
}

/** Reads the `! Key: value` header lines of a list. */
export function parseListHeader(text: string): ListHeader {
  const field = (key: string): string =>
    new RegExp(`^! ${key}: *(.*)$`, 'm').exec(text.slice(0, 4000))?.[1]?.trim() ?? '';
  return {
    title: field('Title'),
    version: field('Version'),
    timeUpdated: field('TimeUpdated'),
    license: field('License'),
    homepage: field('Homepage'),
  };
}
