import { appError } from '../../errors.js';
import type { NativeOptions, ScrapeOptions } from '../types.js';
import { invalidValue, repeatedParameter } from './invalid.js';
import { assertJsonDepth } from './json-depth.js';
import { optionKeyByName, paramFields } from './param-fields.js';
import { QUERY_ONLY_PARAMETERS, SCRAPER_PARAMETERS } from './param-names.js';

/**
 * The parameters one source set, validated and normalised; absent keys were not set there.
 * Layers merge by precedence (defaults < saved workflow config < `config` < query).
 */
export type ParamLayer = Partial<ScrapeOptions>;

const QUERY_ONLY: ReadonlySet<string> = new Set(QUERY_ONLY_PARAMETERS);
// Contract 1.6: keys are never stored in a workflow, whatever the client sent.
const DROPPED_FROM_WORKFLOW: ReadonlySet<string> = new Set(['api_key', 'apiKey']);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseInto<K extends keyof NativeOptions>(layer: ParamLayer, key: K, value: unknown): void {
  layer[key] = paramFields[key].parse(value);
}

/**
 * Values in table order, so the first invalid parameter of the table is the one reported.
 * `onConfig` handles the `config` parameter at its place (after instructions).
 */
function parseValues(
  entries: Record<string, unknown>,
  layer: ParamLayer,
  onConfig?: (value: unknown) => void,
): void {
  for (const name of SCRAPER_PARAMETERS) {
    if (!Object.hasOwn(entries, name)) continue;
    const value = entries[name];
    // null counts as "not set" in JSON layers (a merge patch removes a field with null).
    if (value === undefined || value === null) continue;
    const key = optionKeyByName.get(name);
    if (key !== undefined) parseInto(layer, key, value);
    else if (name === 'config') onConfig?.(value);
  }
}

/**
 * The explicit query parameters and the `config` parameter's object, as two layers.
 * Checks: unknown or repeated names (in query order), then values (in table order).
 * api_key and workflow_id are only checked for repetition: auth and the workflow lookup
 * have used them before (contract 1.2).
 */
export function parseQueryLayers(query: Record<string, unknown>): {
  query: ParamLayer;
  config: ParamLayer;
} {
  for (const [name, value] of Object.entries(query)) {
    if (!optionKeyByName.has(name) && !QUERY_ONLY.has(name)) {
      throw appError('UNKNOWN_PARAMETER', name);
    }
    if (Array.isArray(value)) {
      throw repeatedParameter(name);
    }
  }
  const layers: { query: ParamLayer; config: ParamLayer } = { query: {}, config: {} };
  parseValues(query, layers.query, (value) => {
    layers.config = parseConfigParam(value);
  });
  return layers;
}

function parseConfigParam(value: unknown): ParamLayer {
  let parsed: unknown;
  try {
    parsed = typeof value === 'string' ? JSON.parse(value) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!isPlainObject(parsed)) throw invalidValue('config', 'expected a JSON-encoded object');
  assertJsonDepth(parsed);
  return parseConfigLayer(parsed, 'config');
}

/**
 * A configuration object: the `config` query parameter (`source: 'config'`, where
 * api_key, workflow_id and config are unknown fields) or a workflow's config
 * (`source: 'workflow'`, where api_key/apiKey are silently dropped, contract 1.6).
 */
export function parseConfigLayer(
  input: Record<string, unknown>,
  source: 'config' | 'workflow',
): ParamLayer {
  for (const name of Object.keys(input)) {
    if (source === 'workflow' && DROPPED_FROM_WORKFLOW.has(name)) continue;
    if (!optionKeyByName.has(name)) throw appError('UNKNOWN_CONFIG_FIELD', name);
  }
  const layer: ParamLayer = {};
  parseValues(input, layer);
  return layer;
}
