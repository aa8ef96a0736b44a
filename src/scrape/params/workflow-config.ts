import { type Static, Type } from '@sinclair/typebox';
import { appError } from '../../errors.js';
import { type NativeOptions, PROXY_TYPES, WAIT_UNTIL } from '../types.js';
import { instructionSchema } from './instructions.js';
import { invalidValue } from './invalid.js';
import { isPlainObject, type ParamLayer, parseConfigLayer } from './layers.js';
import { LIMITS, paramFields } from './param-fields.js';
import { applyRules } from './rules.js';

const doc = (key: keyof NativeOptions) => ({ description: paramFields[key].description });

/**
 * A stored workflow config (contract 24/25): snake_case names as in the description,
 * normalised values, `url` and `render` always present, other fields only when set.
 * `block_resources` is stored as the description types it: a string (`image, font` or `none`).
 */
export const workflowConfigSchema = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      description: 'Page to scrape: an absolute http or https URL.',
    }),
    render: Type.Boolean({ default: false, ...doc('render') }),
    window_width: Type.Optional(
      Type.Integer({
        minimum: LIMITS.windowWidth.min,
        maximum: LIMITS.windowWidth.max,
        ...doc('windowWidth'),
      }),
    ),
    window_height: Type.Optional(
      Type.Integer({
        minimum: LIMITS.windowHeight.min,
        maximum: LIMITS.windowHeight.max,
        ...doc('windowHeight'),
      }),
    ),
    screenshot: Type.Optional(Type.Boolean(doc('screenshot'))),
    screenshot_full_page: Type.Optional(Type.Boolean(doc('screenshotFullPage'))),
    markdown: Type.Optional(Type.Boolean(doc('markdown'))),
    block_resources: Type.Optional(Type.String(doc('blockResources'))),
    block_ads: Type.Optional(Type.Boolean(doc('blockAds'))),
    block_cookie_banners: Type.Optional(Type.Boolean(doc('blockCookieBanners'))),
    block_chat_widgets: Type.Optional(Type.Boolean(doc('blockChatWidgets'))),
    webhook_url: Type.Optional(Type.String({ format: 'uri', ...doc('webhookUrl') })),
    proxy_type: Type.Optional(
      Type.Union(
        PROXY_TYPES.map((t) => Type.Literal(t)),
        doc('proxyType'),
      ),
    ),
    proxy_country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', ...doc('proxyCountry') })),
    instructions: Type.Optional(
      Type.Array(instructionSchema, { maxItems: 50, ...doc('instructions') }),
    ),
    timeout: Type.Optional(
      Type.Integer({
        minimum: LIMITS.timeoutMs.min,
        maximum: LIMITS.timeoutMs.max,
        ...doc('timeoutMs'),
      }),
    ),
    wait_until: Type.Optional(
      Type.Union(
        WAIT_UNTIL.map((w) => Type.Literal(w)),
        doc('waitUntil'),
      ),
    ),
    extract_rules: Type.Optional(Type.Record(Type.String(), Type.Unknown(), doc('extractRules'))),
    structured_data: Type.Optional(Type.Boolean(doc('structuredData'))),
    json_schema: Type.Optional(Type.Record(Type.String(), Type.Unknown(), doc('jsonSchema'))),
    json_prompt: Type.Optional(Type.String(doc('jsonPrompt'))),
    summary: Type.Optional(Type.Boolean(doc('summary'))),
    change_tracking: Type.Optional(Type.Boolean(doc('changeTracking'))),
  },
  {
    additionalProperties: false,
    description: 'Saved scraper parameters (same names and rules as the scraper query)',
  },
);
export type WorkflowConfig = Static<typeof workflowConfigSchema>;

/** A workflow's config, validated and ready to be the "saved" layer of a scraper request. */
export type SavedConfig = Readonly<ParamLayer>;

/**
 * Validates and normalises a config submitted to create or edit a workflow (contract 25):
 * every scraper parameter except api_key, workflow_id and config (api_key/apiKey entries
 * are dropped); `url` required; the scraper's value rules and cross-parameter rules; null
 * fields are treated as absent. Throws the first problem as a 400 AppError.
 */
export function normalizeWorkflowConfig(input: unknown): WorkflowConfig {
  if (input === undefined || input === null) throw appError('CONFIG_REQUIRED');
  if (!isPlainObject(input)) throw invalidValue('config', 'expected a JSON object');
  const layer = parseConfigLayer(input, 'workflow');
  applyRules(layer);
  return toWorkflowConfig(layer);
}

/**
 * The saved layer for parseScraperRequest. Lenient about what older rows may hold (the
 * description shows `api_key` entries and `render` as a string), strict about the rest.
 */
export function savedConfigFromWorkflow(config: unknown): SavedConfig {
  if (!isPlainObject(config)) throw invalidValue('config', 'expected a JSON object');
  return parseConfigLayer(config, 'workflow');
}

function toWorkflowConfig(layer: ParamLayer): WorkflowConfig {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(paramFields) as (keyof NativeOptions)[]) {
    const value = layer[key];
    if (value === undefined) continue;
    const stored = storedForm(key, value);
    if (stored !== undefined) out[paramFields[key].name] = stored;
  }
  out.render = layer.render ?? false;
  return out as WorkflowConfig;
}

function storedForm<K extends keyof NativeOptions>(key: K, value: NativeOptions[K]): unknown {
  return paramFields[key].toConfig(value);
}
