/**
 * The door's formats made by the operator's model from a scrape's Markdown: `json` (v1's
 * `extract` too) and `summary`, each one paid model call (models/model-calls.ts).
 */
import type { ModelCalls } from '../models/model-calls.js';
import { extractJson, schemaValidator, summarize } from '../models/structured-answer.js';
import type { FirecrawlDocument } from './document.js';
import type { ModelFormats } from './scrape-request.js';

export interface ModelFormatContext {
  accountId: string;
  url: string;
  signal?: AbortSignal;
}

/** A schema that is no JSON schema is a 400 before the scrape, not a failed model call. */
export function checkModelFormats(formats: ModelFormats): void {
  if (formats.json?.schema) schemaValidator(formats.json.schema);
}

/** Adds the model's formats to `document`; the credits they cost. */
export async function addModelFormats(
  document: FirecrawlDocument,
  formats: ModelFormats,
  calls: ModelCalls,
  context: ModelFormatContext,
): Promise<number> {
  const page = { url: context.url, markdown: document.markdown ?? '' };
  const base = { accountId: context.accountId, url: context.url, source: 'firecrawl' };
  let charged = 0;
  if (formats.json) {
    const { field, ...request } = formats.json;
    const answer = await calls.run({ ...base, kind: 'json' }, (model) =>
      extractJson(model, [page], request, context.signal),
    );
    document[field] = answer.value;
    charged += answer.charged;
  }
  if (formats.summary) {
    const answer = await calls.run({ ...base, kind: 'summary' }, (model) =>
      summarize(model, page, context.signal),
    );
    document.summary = answer.value;
    charged += answer.charged;
  }
  return charged;
}
