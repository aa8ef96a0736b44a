/**
 * The output stage: a PageSnapshot becomes the bytes the caller (or a webhook) receives.
 * The table is keyed by OutputType, so a new output type fails to compile until handled.
 */
import { appError } from '../../api/errors.js';
import type { OutputType, PageSnapshot, ScrapePlan, ScrapeResult } from '../types.js';
import { htmlToMarkdown } from './markdown/index.js';

type Producer = (snapshot: PageSnapshot) => { contentType: string; body: Buffer };

const producers: Record<OutputType, Producer> = {
  html: (snapshot) => ({
    contentType: 'text/html; charset=utf-8',
    body: Buffer.from(snapshot.html, 'utf8'),
  }),
  markdown: (snapshot) => ({
    contentType: 'text/markdown; charset=utf-8',
    body: Buffer.from(htmlToMarkdown(snapshot.html, snapshot.finalUrl), 'utf8'),
  }),
  screenshot: (snapshot) => {
    if (!snapshot.screenshot) throw appError('BROWSER_FAILED', 'no screenshot was taken');
    return { contentType: 'image/png', body: snapshot.screenshot };
  },
};

export function produceOutput(plan: ScrapePlan, snapshot: PageSnapshot): ScrapeResult {
  const { contentType, body } = producers[plan.output](snapshot);
  return { contentType, body, finalUrl: snapshot.finalUrl, targetStatus: snapshot.status };
}
