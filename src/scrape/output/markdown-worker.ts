/**
 * Worker-thread side of the Markdown pool: converts one page per message. The thread holds
 * no state between pages, so the pool may terminate it mid-page and start a fresh one.
 */
import { parentPort } from 'node:worker_threads';
import { htmlToMarkdown } from './markdown/index.js';

export interface ConvertRequest {
  id: number;
  html: string;
  pageUrl: string;
}

export interface ConvertReply {
  id: number;
  markdown: string;
}

parentPort?.on('message', (request: ConvertRequest) => {
  const reply: ConvertReply = {
    id: request.id,
    markdown: htmlToMarkdown(request.html, request.pageUrl),
  };
  parentPort?.postMessage(reply);
});
parentPort?.postMessage('ready');
