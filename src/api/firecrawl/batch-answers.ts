/**
 * What the batch routes share: Firecrawl's answer for a batch that is not the caller's to
 * see (unknown, expired or another account's: the same 404, so ids leak nothing), the
 * batch's status URL, and Firecrawl's code for a failed page's error.
 */
import type { FastifyReply } from 'fastify';
import { AppError, type ErrorCode, statusOf } from '../../errors.js';
import type { FirecrawlVersion } from '../../firecrawl/scrape-request.js';
import { firecrawlAnswerOf, sendFirecrawlError } from './firecrawl-errors.js';

/** Firecrawl's text for a job it does not know. */
export const JOB_NOT_FOUND = 'Job not found';

export function sendJobNotFound(reply: FastifyReply) {
  return sendFirecrawlError(reply, { status: 404, code: 'NOT_FOUND', error: JOB_NOT_FOUND });
}

export function batchUrl(baseUrl: string, version: FirecrawlVersion, id: string): string {
  return `${baseUrl}/${version}/batch/scrape/${id}`;
}

export function crawlUrl(baseUrl: string, version: FirecrawlVersion, id: string): string {
  return `${baseUrl}/${version}/crawl/${id}`;
}

/** The catalog's code of a page's failure as Firecrawl names it (SCRAPE_TIMEOUT, ...). */
export function firecrawlCodeOf(code: ErrorCode): string {
  return firecrawlAnswerOf(new AppError(code, statusOf(code), '', {}))?.code ?? code;
}

export const FIRECRAWL_VERSIONS: readonly FirecrawlVersion[] = ['v2', 'v1'];
