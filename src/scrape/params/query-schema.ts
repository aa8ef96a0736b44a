import { type TOptional, type TString, Type } from '@sinclair/typebox';
import { optionKeyByName, paramFields } from './param-fields.js';
import {
  type QueryOnlyParamName,
  SCRAPER_PARAMETERS,
  type ScraperParamName,
} from './param-names.js';

const QUERY_ONLY_DOCS: Record<QueryOnlyParamName, string> = {
  api_key: 'The account API key. Required unless the X-API-Key header is sent.',
  workflow_id: 'Run with the saved config of this workflow; url may then be omitted.',
  config:
    'JSON-encoded object of scraper parameters (any parameter of this table except api_key, workflow_id, config and session_id). Precedence: defaults < workflow config < config < query parameters.',
  session_id:
    'A sticky session of your account: scrapes naming the same session_id keep the same proxy, the same connection through it (render=false; for render=true the same browser page and its connections, one per target host) and the same cookies (render=true and render=false), until the session has been idle for 5 minutes; then the name starts a new session. 1 to 100 letters, digits, dots, underscores or hyphens; empty means none. Another proxy_type or proxy_country under the same name starts a new session. A session is not retried on another proxy when blocked. Not part of a workflow config.',
};

function docsOf(name: ScraperParamName): { description: string; default?: string } {
  const key = optionKeyByName.get(name);
  if (key === undefined) return { description: QUERY_ONLY_DOCS[name as QueryOnlyParamName] };
  const { description, docDefault } = paramFields[key];
  return docDefault === undefined ? { description } : { description, default: docDefault };
}

/**
 * The scraper's query parameters, for the OpenAPI document (contract 36). Every value is a
 * string at the HTTP level: booleans accept true/false/1/0 in any case and repeated or
 * unknown parameters need the contract's texts, so parseScraperRequest is the validator.
 *
 * Register it ONLY together with a validator that accepts everything (the API's
 * passThroughValidatorCompiler) on the route: Fastify's Ajv
 * would insert the documented defaults into the query (useDefaults), and an inserted
 * `render=false` would then override a workflow's saved `render=true`.
 */
export const scraperQuerySchema = Type.Object(
  Object.fromEntries(
    SCRAPER_PARAMETERS.map((name) => [name, Type.Optional(Type.String(docsOf(name)))]),
  ) as { [N in ScraperParamName]: TOptional<TString> },
  {
    additionalProperties: true,
    description:
      'Unknown parameters are refused with 400 "Unknown parameter: <name>"; a parameter may be given once.',
  },
);
