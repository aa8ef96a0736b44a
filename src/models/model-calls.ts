/**
 * Model calls as the account pays for them, the way scrapes are paid for: PRICE_MODEL_CALL
 * reserved before the call (402 when short, and the model is not asked), settled after it,
 * refunded when it fails. Each call is a request of its own in the ledger and the request
 * log (output type `json`, `summary` or `extract`), its record carrying the model's name and
 * token counts in its params, in the settle's transaction.
 */

import type { Ledger } from '../billing/credits.js';
import { endRequest, reserve } from '../billing/credits.js';
import { type AppError, appError, isAppError } from '../errors.js';
import type { Store } from '../store/db.js';
import { newId } from '../store/ids.js';
import type { RunRecord } from '../store/run-records.js';
import type { ChatModel } from './chat-model.js';
import type { ModelResult } from './structured-answer.js';

export type ModelCallKind = 'json' | 'summary' | 'extract' | 'changeTracking';

export interface ModelCallContext {
  accountId: string;
  /** The page (or the first of an extract's) the call is about. */
  url: string;
  kind: ModelCallKind;
  /** Where it came from: `firecrawl` (a scrape's format), `extract`. */
  source: string;
}

export interface ModelCalls {
  readonly model: ChatModel;
  /** Runs `work` as one paid call; its value, and what it cost. */
  run<T>(
    context: ModelCallContext,
    work: (model: ChatModel) => Promise<ModelResult<T>>,
  ): Promise<{ value: T; charged: number }>;
  /**
   * As `run`, but a call that answered is settled by the caller, in the commit that keeps
   * its answer (an extract's end): a crash before that commit leaves the reservation to the
   * reaper, refunded, so a call asked again after a takeover is charged once. A failed call
   * is refunded at once, as by `run`.
   */
  runDeferred<T>(
    context: ModelCallContext,
    work: (model: ChatModel) => Promise<ModelResult<T>>,
  ): Promise<{ value: T; charged: number; settle(ledger: Ledger): Promise<void> }>;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

export function createModelCalls(
  store: Pick<Store, 'db' | 'dialect' | 'transact'>,
  model: ChatModel,
): ModelCalls {
  const price = model.callPrice;
  async function call<T>(
    context: ModelCallContext,
    work: (model: ChatModel) => Promise<ModelResult<T>>,
  ): Promise<{ value: T; charged: number; settle(ledger: Ledger): Promise<void> }> {
    const requestId = newId();
    const createdAt = Date.now();
    const credits = { accountId: context.accountId, requestId };
    const balance = await reserve(store, credits, price);
    if (balance === null) throw appError('INSUFFICIENT_CREDITS');
    const record = (
      failure: AppError | null,
      tokens: Omit<ModelResult<unknown>, 'value'> | null,
    ): RunRecord => ({
      id: requestId,
      accountId: context.accountId,
      workflowId: null,
      url: context.url,
      status: failure ? 'failed' : 'success',
      statusCode: failure ? failure.status : 200,
      targetStatus: null,
      outputType: context.kind,
      render: false,
      proxyType: 'none',
      proxyCountry: null,
      credits: failure ? 0 : price,
      durationMs: Date.now() - createdAt,
      error: failure?.message ?? null,
      webhook: null,
      createdAt,
      source: context.source,
      host: hostOf(context.url),
      params: JSON.stringify({
        model: model.name,
        promptTokens: tokens?.promptTokens ?? 0,
        completionTokens: tokens?.completionTokens ?? 0,
      }),
    });
    let result: ModelResult<T>;
    try {
      result = await work(model);
    } catch (error) {
      const failure = isAppError(error) ? error : appError('MODEL_FAILED', String(error));
      await endRequest(store, {
        ...credits,
        charged: null,
        held: price,
        record: record(failure, null),
      });
      throw error;
    }
    const settle = async (ledger: Ledger) => {
      await endRequest(ledger, {
        ...credits,
        charged: price,
        held: price,
        record: record(null, result),
      });
    };
    return { value: result.value, charged: price, settle };
  }
  return {
    model,
    async run(context, work) {
      const { value, charged, settle } = await call(context, work);
      await settle(store);
      return { value, charged };
    },
    runDeferred: call,
  };
}
