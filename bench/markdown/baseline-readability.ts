/**
 * Baseline converter for the quality bench: @mozilla/readability on a linkedom DOM, then
 * turndown with the GFM plugin. Kept only to compare the project's converter against.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
// @ts-expect-error the plugin ships no types
import { gfm } from 'turndown-plugin-gfm';

export function readabilityTurndown(html: string, pageUrl: string): string {
  const { document } = parseHTML(html);
  try {
    const base = document.createElement('base');
    base.setAttribute('href', pageUrl);
    document.head?.appendChild(base);
  } catch {
    // linkedom without a head: links stay as written
  }
  // linkedom's document is close enough to the DOM Readability expects
  const article = new Readability(document as unknown as Document).parse();
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  td.use(gfm);
  return article?.content ? td.turndown(article.content) : '';
}
