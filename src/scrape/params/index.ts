/**
 * Scraper parameters: one source for the route, the OpenAPI document and workflow configs.
 *
 * Decisions where the contract leaves room:
 * - Order of checks: unknown/repeated names (query order), values (table order, `config`
 *   content after instructions), `URL is required!`, one output type, requires render.
 * - window_width/window_height are validated always and applied only with render=true.
 * - `url=` (empty) is an invalid url, not a missing one; `webhook_url=` and
 *   `proxy_country=` (empty) clear a saved value; `block_resources=` and `instructions=`
 *   (empty) mean none. In JSON layers a null field counts as absent.
 * - proxy_type and block_resources names are case-insensitive, like booleans.
 * - Instruction pauses (`delay`, `fill.delay`) are capped at 120000 ms, the largest budget;
 *   `wait` may be any string, as the description sets no minimum.
 * - Workflow configs store block_resources as a string (`image, font` or `none`), apply
 *   the same cross-parameter rules as a request, and keep only the fields given plus render.
 */
export { instructionSchema, MAX_INSTRUCTIONS } from './instructions.js';
export { DEFAULT_SCRAPE_OPTIONS, LIMITS } from './param-fields.js';
export { SCRAPER_PARAMETERS, type ScraperParamName } from './param-names.js';
export { parseScraperRequest, workflowIdOf } from './parse-scraper-request.js';
export { scraperQuerySchema } from './query-schema.js';
export {
  normalizeWorkflowConfig,
  type SavedConfig,
  savedConfigFromWorkflow,
  type WorkflowConfig,
  workflowConfigSchema,
} from './workflow-config.js';
