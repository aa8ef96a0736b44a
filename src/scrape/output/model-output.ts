/**
 * The native `json` and `summary` outputs: the operator's model over the page's main-content
 * Markdown (the markdown output's text). The scrape side knows the model only through this
 * port, which the composition root builds from models/ (compose/scrape-parts.ts), so the
 * pipeline stays below it. One model call per scrape, priced into the plan: PRICE_MODEL_CALL
 * is reserved with the scrape (402 before anything is fetched), charged with it, refunded
 * with it when either fails; its token counts go into the scrape's request record.
 */
import { appError } from '../../errors.js';
import type { ModelUsage, OutputType, ScrapeOptions } from '../types.js';

export interface ModelAnswer<T> {
  value: T;
  promptTokens: number;
  completionTokens: number;
}

/** The operator's model as the output stage and the planner use it. */
export interface PageModel {
  readonly name: string;
  /** Credits per call (PRICE_MODEL_CALL). */
  readonly callPrice: number;
  /** 400 when `schema` is no JSON schema. */
  checkSchema(schema: Record<string, unknown>): void;
  json(
    page: { url: string; markdown: string },
    question: { schema?: Record<string, unknown>; prompt?: string },
    signal: AbortSignal,
  ): Promise<ModelAnswer<unknown>>;
  summary(
    page: { url: string; markdown: string },
    signal: AbortSignal,
  ): Promise<ModelAnswer<string>>;
}

export type ModelOutputType = Extract<OutputType, 'json' | 'summary'>;

const isModelOutput = (output: OutputType): output is ModelOutputType =>
  output === 'json' || output === 'summary';

/**
 * What a plan's model calls add to its price: 0 for other outputs; a 400 naming the
 * parameter and the settings when no model is configured, or when the schema is none.
 */
export function modelCallPrice(
  output: OutputType,
  options: Pick<ScrapeOptions, 'jsonSchema' | 'jsonPrompt'>,
  model: Pick<PageModel, 'callPrice' | 'checkSchema'> | null,
): number {
  if (output === 'change_tracking') return changeTrackingCallsPrice(options, model);
  if (!isModelOutput(output)) return 0;
  if (!model) {
    throw appError(
      'MODEL_NOT_CONFIGURED',
      output === 'json' ? 'The json_schema and json_prompt parameters' : 'The summary parameter',
    );
  }
  if (output === 'json' && options.jsonSchema) model.checkSchema(options.jsonSchema);
  return model.callPrice;
}

/**
 * change_tracking's json mode asks the model twice (the previous page, the current one) as
 * the Firecrawl door does; both are reserved before the fetch and the settle returns them
 * when the page did not change (change-tracking-output.ts: `unspent`).
 */
function changeTrackingCallsPrice(
  options: Pick<ScrapeOptions, 'jsonSchema' | 'jsonPrompt'>,
  model: Pick<PageModel, 'callPrice' | 'checkSchema'> | null,
): number {
  if (!options.jsonSchema && !options.jsonPrompt) return 0;
  if (!model) {
    throw appError(
      'MODEL_NOT_CONFIGURED',
      'The change_tracking json mode (json_schema and json_prompt)',
    );
  }
  if (options.jsonSchema) model.checkSchema(options.jsonSchema);
  return CHANGE_TRACKING_CALLS * model.callPrice;
}

/** The model calls of change_tracking's json mode on a changed page. */
export const CHANGE_TRACKING_CALLS = 2;

/** The answer's bytes and type, and what the call used. */
export async function modelOutput(
  output: ModelOutputType,
  model: PageModel | null,
  options: Pick<ScrapeOptions, 'jsonSchema' | 'jsonPrompt'>,
  page: { url: string; markdown: string },
  signal: AbortSignal,
): Promise<{ contentType: string; body: Buffer; model: ModelUsage }> {
  // The planner refused the plan without one; a stored plan may outlive a setting.
  if (!model) throw appError('MODEL_NOT_CONFIGURED', `The ${output} output`);
  const usage = (answer: ModelAnswer<unknown>): ModelUsage => ({
    model: model.name,
    promptTokens: answer.promptTokens,
    completionTokens: answer.completionTokens,
  });
  if (output === 'summary') {
    const answer = await model.summary(page, signal);
    return {
      contentType: 'text/plain; charset=utf-8',
      body: Buffer.from(answer.value, 'utf8'),
      model: usage(answer),
    };
  }
  const answer = await model.json(
    page,
    {
      ...(options.jsonSchema ? { schema: options.jsonSchema } : {}),
      ...(options.jsonPrompt ? { prompt: options.jsonPrompt } : {}),
    },
    signal,
  );
  return {
    contentType: 'application/json; charset=utf-8',
    body: Buffer.from(JSON.stringify(answer.value), 'utf8'),
    model: usage(answer),
  };
}
