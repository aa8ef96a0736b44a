import type { ScrapeOptions } from '../types.js';
import { repeatedParameter } from './invalid.js';
import { parseQueryLayers } from './layers.js';
import { parseSessionId } from './param-fields.js';
import { applyRules, mergeLayers } from './rules.js';
import type { SavedConfig } from './workflow-config.js';

/**
 * The one validation of a scraper request (contract 2.1-2.11). Run it after auth and the
 * workflow lookup (contract 1.2); pass the workflow's config through savedConfigFromWorkflow.
 *
 * Precedence, lowest first: DEFAULT_SCRAPE_OPTIONS < `defaults` < saved workflow config <
 * the `config` parameter < explicit query parameters. Every layer is validated whole, even
 * where a higher one overrides it.
 *
 * When several things are wrong, the first of these is reported: an unknown or repeated
 * query parameter (in query order); an invalid value (in the parameter table's order,
 * `config`'s content at its place after instructions); `URL is required!`; one output
 * type; `<name> requires render=true`. Every failure is an AppError with status 400.
 *
 * @param query the raw query object (strings, or arrays for repeated parameters)
 * @param saved the workflow's saved config, when run with workflow_id
 * @param defaults operator overrides of DEFAULT_SCRAPE_OPTIONS (default: none)
 */
export function parseScraperRequest(
  query: Record<string, unknown>,
  saved?: SavedConfig | null,
  defaults?: Partial<Omit<ScrapeOptions, 'url'>>,
): ScrapeOptions {
  const layers = parseQueryLayers(query);
  const options = applyRules(mergeLayers([saved ?? {}, layers.config, layers.query]), defaults);
  // A query-only parameter (a session is the call's, not a config's): checked last.
  if (query.session_id === undefined) return options;
  return { ...options, sessionId: parseSessionId('session_id', query.session_id) };
}

/**
 * The `workflow_id` of a scraper query, for the workflow lookup that runs before the
 * parameters are validated (contract 1.2). Empty means none; repeated is 400.
 */
export function workflowIdOf(query: Record<string, unknown>): string | null {
  const value = Object.hasOwn(query, 'workflow_id') ? query.workflow_id : undefined;
  if (Array.isArray(value)) {
    throw repeatedParameter('workflow_id');
  }
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
