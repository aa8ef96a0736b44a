/**
 * The scrape side's port to the operator's model (scrape/output/model-output.ts: the native
 * json and summary outputs), built from models/: the same chat client, schema check, repair
 * and page cut as the Firecrawl door's formats.
 */
import type { ModelSettings } from '../config.js';
import { createChatModel } from '../models/chat-model.js';
import { extractJson, schemaValidator, summarize } from '../models/structured-answer.js';
import type { PageModel } from '../scrape/output/model-output.js';

export function pageModelOf(settings: ModelSettings): PageModel {
  const chat = createChatModel(settings);
  return {
    name: chat.name,
    callPrice: chat.callPrice,
    checkSchema: (schema) => {
      schemaValidator(schema);
    },
    json: (page, question, signal) => extractJson(chat, [page], question, signal),
    summary: (page, signal) => summarize(chat, page, signal),
  };
}
