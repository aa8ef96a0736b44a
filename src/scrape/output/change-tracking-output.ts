/**
 * The native `change_tracking` output: the page's main-content Markdown against the same
 * account's previous change_tracking scrape of the same URL (page-changes.ts, the comparison
 * the Firecrawl door's `changeTracking` uses), answered as JSON with the current Markdown,
 * which the kept result holds for the next comparison. With `json_schema` and/or
 * `json_prompt` (the json mode), a changed page is read by the operator's model twice, the
 * previous Markdown and the current one, and `json` holds each field whose answer changed;
 * a new, same or removed page asks nothing, and the two calls reserved with the scrape are
 * returned at the settle (`unspent`), so the charge is the door's: the scrape, plus two model
 * calls only when they were made.
 */
import { appError } from '../../errors.js';
import type { ModelUsage, ScrapeRun } from '../types.js';
import { CHANGE_TRACKING_CALLS, type ModelAnswer, type PageModel } from './model-output.js';
import {
  changedFields,
  type PageChange,
  pageChangeOf,
  previousScrape,
  type ScrapeHistory,
} from './page-changes.js';

export interface ChangeTrackingAnswer extends PageChange {
  /** json mode, on a changed page: each field whose answer changed. */
  json?: Record<string, { previous: unknown; current: unknown }>;
  markdown: string;
}

export async function changeTrackingOutput(
  history: ScrapeHistory | null,
  model: PageModel | null,
  run: Pick<ScrapeRun, 'options' | 'signal' | 'requestId' | 'accountId'>,
  page: { url: string; markdown: string; statusCode: number },
): Promise<{ contentType: string; body: Buffer; model?: ModelUsage; unspent?: number }> {
  const { requestId, accountId, options } = run;
  // The composition root hands the history in; a stage built without it cannot compare.
  if (!history || !requestId || !accountId) throw appError('INTERNAL');
  const previous = await previousScrape(
    history,
    { accountId, url: options.url, beforeId: requestId },
    'change_tracking',
  );
  const change = pageChangeOf(page, previous);
  const answer: ChangeTrackingAnswer = { ...change, markdown: page.markdown };
  const question = {
    ...(options.jsonSchema ? { schema: options.jsonSchema } : {}),
    ...(options.jsonPrompt ? { prompt: options.jsonPrompt } : {}),
  };
  const asks = Object.keys(question).length > 0;
  let usage: ModelUsage | undefined;
  let unspent = 0;
  if (asks) {
    // The planner refused the json mode without a model; a stored plan may outlive a setting.
    if (!model) throw appError('MODEL_NOT_CONFIGURED', 'The change_tracking json mode');
    if (previous && change.changeStatus === 'changed') {
      const before = await model.json(
        { ...page, markdown: previous.markdown },
        question,
        run.signal,
      );
      const after = await model.json(page, question, run.signal);
      answer.json = changedFields(before.value, after.value);
      usage = usageOf(model.name, [before, after]);
    } else {
      unspent = CHANGE_TRACKING_CALLS * model.callPrice;
    }
  }
  return {
    contentType: 'application/json; charset=utf-8',
    body: Buffer.from(JSON.stringify(answer), 'utf8'),
    ...(usage ? { model: usage } : {}),
    ...(unspent > 0 ? { unspent } : {}),
  };
}

function usageOf(name: string, answers: ModelAnswer<unknown>[]): ModelUsage {
  return {
    model: name,
    promptTokens: answers.reduce((sum, a) => sum + a.promptTokens, 0),
    completionTokens: answers.reduce((sum, a) => sum + a.completionTokens, 0),
  };
}
