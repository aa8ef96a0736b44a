import type { ProxyType, ResourceType, WaitUntil, WorkflowConfig } from '../api/types.js';
import { numberish, text } from './form-text.js';
import { type StepDraft, stepToInstruction, toSteps } from './instruction-steps.js';

/** The create/edit form's state: inputs keep their raw text; conversion happens on submit. */
export interface ConfigForm {
  url: string;
  render: boolean;
  window_width: string;
  window_height: string;
  screenshot: boolean;
  screenshot_full_page: boolean;
  markdown: boolean;
  block_resources: ResourceType[];
  block_ads: boolean;
  block_cookie_banners: boolean;
  block_chat_widgets: boolean;
  webhook_url: string;
  proxy_type: '' | ProxyType;
  proxy_country: string;
  timeout: string;
  /** Empty: the default (load), left out of the config. */
  wait_until: '' | WaitUntil;
  instructions: StepDraft[];
  /** The rules as JSON text; empty: no extraction. */
  extract_rules: string;
  structured_data: boolean;
  /** The model's JSON schema as JSON text; empty: none. */
  json_schema: string;
  /** What the model is to extract; empty: none. */
  json_prompt: string;
  summary: boolean;
  change_tracking: boolean;
}

/** The config fields this form owns; others found in a saved config are left untouched. */
export const FORM_FIELDS = [
  'url',
  'render',
  'window_width',
  'window_height',
  'screenshot',
  'screenshot_full_page',
  'markdown',
  'block_resources',
  'block_ads',
  'block_cookie_banners',
  'block_chat_widgets',
  'webhook_url',
  'proxy_type',
  'proxy_country',
  'timeout',
  'wait_until',
  'instructions',
  'extract_rules',
  'structured_data',
  'json_schema',
  'json_prompt',
  'summary',
  'change_tracking',
] as const satisfies readonly (keyof ConfigForm)[];

export function emptyForm(): ConfigForm {
  return {
    url: '',
    render: false,
    window_width: '',
    window_height: '',
    screenshot: false,
    screenshot_full_page: false,
    markdown: false,
    block_resources: [],
    block_ads: false,
    block_cookie_banners: false,
    block_chat_widgets: false,
    webhook_url: '',
    proxy_type: '',
    proxy_country: '',
    timeout: '',
    wait_until: '',
    instructions: [],
    extract_rules: '',
    structured_data: false,
    json_schema: '',
    json_prompt: '',
    summary: false,
    change_tracking: false,
  };
}

/** The config a form describes; defaults and empty inputs are left out. */
export function formToConfig(f: ConfigForm): WorkflowConfig {
  const c: WorkflowConfig = { url: f.url.trim(), render: f.render };
  const put = (key: string, value: unknown) => {
    if (value !== undefined && value !== '' && value !== false) c[key] = value;
  };
  put('window_width', numberish(f.window_width));
  put('window_height', numberish(f.window_height));
  put('screenshot', f.screenshot);
  put('screenshot_full_page', f.screenshot_full_page);
  put('markdown', f.markdown);
  // Comma plus space: the form the description shows and the server stores.
  put('block_resources', f.block_resources.join(', '));
  put('block_ads', f.block_ads);
  put('block_cookie_banners', f.block_cookie_banners);
  put('block_chat_widgets', f.block_chat_widgets);
  put('webhook_url', f.webhook_url.trim());
  put('proxy_type', f.proxy_type);
  put('proxy_country', f.proxy_country.trim());
  put('timeout', numberish(f.timeout));
  put('wait_until', f.wait_until);
  if (f.instructions.length > 0) c.instructions = f.instructions.map(stepToInstruction);
  put('extract_rules', rulesOf(f.extract_rules));
  put('structured_data', f.structured_data);
  put('json_schema', rulesOf(f.json_schema));
  put('json_prompt', f.json_prompt.trim());
  put('summary', f.summary);
  put('change_tracking', f.change_tracking);
  return c;
}

/**
 * Rules (or a schema) that parse are sent as JSON; text that does not is sent as typed, for
 * the server to name.
 */
function rulesOf(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return trimmed;
  }
}

const bool = (v: unknown): boolean => v === true || v === 'true' || v === 1 || v === '1';

export function configToForm(c: WorkflowConfig): ConfigForm {
  const resources = text(c.block_resources)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== 'none') as ResourceType[];
  return {
    url: text(c.url),
    render: bool(c.render),
    window_width: text(c.window_width),
    window_height: text(c.window_height),
    screenshot: bool(c.screenshot),
    screenshot_full_page: bool(c.screenshot_full_page),
    markdown: bool(c.markdown),
    block_resources: resources,
    block_ads: bool(c.block_ads),
    block_cookie_banners: bool(c.block_cookie_banners),
    block_chat_widgets: bool(c.block_chat_widgets),
    webhook_url: text(c.webhook_url),
    proxy_type: text(c.proxy_type) as ConfigForm['proxy_type'],
    proxy_country: text(c.proxy_country),
    timeout: text(c.timeout),
    wait_until: text(c.wait_until) as ConfigForm['wait_until'],
    instructions: toSteps(c.instructions),
    extract_rules:
      c.extract_rules === undefined || c.extract_rules === null
        ? ''
        : typeof c.extract_rules === 'string'
          ? c.extract_rules
          : JSON.stringify(c.extract_rules, null, 2),
    structured_data: bool(c.structured_data),
    json_schema: jsonText(c.json_schema),
    json_prompt: text(c.json_prompt),
    summary: bool(c.summary),
    change_tracking: bool(c.change_tracking),
  };
}

/** A saved JSON value as the form's text: strings as they are, objects pretty-printed. */
function jsonText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/**
 * The JSON merge patch (RFC 7396) that turns `saved` into `next`: changed fields are set,
 * fields the form owns that were cleared become null (removed). Fields the form does not
 * know stay as saved. Null when nothing changed.
 */
export function configPatch(
  saved: WorkflowConfig,
  next: WorkflowConfig,
): Record<string, unknown> | null {
  const patch: Record<string, unknown> = {};
  for (const key of FORM_FIELDS) {
    const before = saved[key];
    const after = next[key];
    if (after === undefined) {
      if (before !== undefined && before !== null) patch[key] = null;
    } else if (JSON.stringify(before) !== JSON.stringify(after)) {
      patch[key] = after;
    }
  }
  return Object.keys(patch).length > 0 ? patch : null;
}
