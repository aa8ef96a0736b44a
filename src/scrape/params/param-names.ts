/**
 * Every scraper query parameter, in the description's table order (then `config` and
 * `timeout`, which the contract adds). This order is the order in which values are
 * validated, so when several parameters are wrong the first one here is reported.
 */
export const SCRAPER_PARAMETERS = [
  'api_key',
  'url',
  'render',
  'window_width',
  'window_height',
  'screenshot',
  'screenshot_full_page',
  'markdown',
  'workflow_id',
  'block_resources',
  'block_ads',
  'block_cookie_banners',
  'block_chat_widgets',
  'webhook_url',
  'proxy_type',
  'proxy_country',
  'instructions',
  'config',
  'timeout',
  'wait_until',
  'extract_rules',
  'structured_data',
  'json_schema',
  'json_prompt',
  'summary',
  'change_tracking',
  'session_id',
] as const;
export type ScraperParamName = (typeof SCRAPER_PARAMETERS)[number];

/**
 * Parameters that select or wrap a configuration rather than being part of one (a sticky
 * session belongs to a call, never to a saved workflow).
 */
export const QUERY_ONLY_PARAMETERS = ['api_key', 'workflow_id', 'config', 'session_id'] as const;
export type QueryOnlyParamName = (typeof QUERY_ONLY_PARAMETERS)[number];
/** The parameters a configuration (`config`, a workflow's config) may hold. */
export type ConfigParamName = Exclude<ScraperParamName, QueryOnlyParamName>;
