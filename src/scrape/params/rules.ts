import { appError } from '../../errors.js';
import type { ScrapeOptions } from '../types.js';
import type { ParamLayer } from './layers.js';
import { DEFAULT_SCRAPE_OPTIONS } from './param-fields.js';

/** Merges layers given lowest precedence first; a key a layer did not set keeps the lower value. */
export function mergeLayers(layers: readonly ParamLayer[]): ParamLayer {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      if (value !== undefined) merged[key] = value;
    }
  }
  return merged as ParamLayer;
}

/**
 * The cross-parameter rules, on the merged result, in this order:
 * `URL is required!` (contract 2.2), one output type (rule 10), then `<name> requires
 * render=true` (rule 11) for screenshot, screenshot_full_page, block_resources, instructions.
 */
export function applyRules(
  merged: ParamLayer,
  defaults?: Partial<Omit<ScrapeOptions, 'url'>>,
): ScrapeOptions {
  const options = mergeLayers([DEFAULT_SCRAPE_OPTIONS, defaults ?? {}, merged]);
  const { url } = options;
  if (url === undefined) throw appError('URL_REQUIRED');
  const complete: ScrapeOptions = {
    ...(options as Omit<ScrapeOptions, 'url'>),
    url,
    // Fresh arrays: the defaults' arrays are shared by every request.
    blockResources: [...(options.blockResources ?? [])],
    instructions: [...(options.instructions ?? [])],
  };

  const outputs = [
    complete.markdown,
    complete.screenshot || complete.screenshotFullPage,
    complete.extractRules !== null,
    complete.structuredData,
    // with change_tracking, json_schema and json_prompt are its json mode's questions
    (complete.jsonSchema !== null || complete.jsonPrompt !== null) && !complete.changeTracking,
    complete.summary,
    complete.changeTracking,
  ];
  if (outputs.filter(Boolean).length > 1) throw appError('ONE_OUTPUT_TYPE');
  if (!complete.render) {
    const needsBrowser: [string, boolean][] = [
      ['screenshot', complete.screenshot],
      ['screenshot_full_page', complete.screenshotFullPage],
      ['block_resources', complete.blockResources.length > 0],
      ['instructions', complete.instructions.length > 0],
    ];
    const offending = needsBrowser.find(([, used]) => used);
    if (offending) throw appError('REQUIRES_RENDER', offending[0]);
  }
  return complete;
}
