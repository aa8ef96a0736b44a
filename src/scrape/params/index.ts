/** Scraper parameters: one source for the route, the OpenAPI document and workflow configs. */
export { instructionSchema, MAX_INSTRUCTIONS } from './instructions.js';
export { engineOf, outputTypeOf } from './output.js';
export { DEFAULT_SCRAPE_OPTIONS, LIMITS } from './param-fields.js';
export { SCRAPER_PARAMETERS, type ScraperParamName } from './param-names.js';
export { parseScraperRequest } from './parse-scraper-request.js';
export { passThroughValidatorCompiler, scraperQuerySchema } from './query-schema.js';
export {
  normalizeWorkflowConfig,
  type SavedConfig,
  savedConfigFromWorkflow,
  type WorkflowConfig,
  workflowConfigSchema,
} from './workflow-config.js';
export { workflowIdOf } from './workflow-id.js';
