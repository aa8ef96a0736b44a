/**
 * Inline teasers inside the article (discard.ts): the box a CMS places between two
 * paragraphs to promote another page, named as such by class or by a custom element's tag,
 * goes; the paragraphs around it stay. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://news.example.org/story.html';

const prose = (from: number, to: number) =>
  Array.from(
    { length: to - from },
    (_, i) =>
      `<p>Paragraph ${from + i}: the ministry changed the rules for certificates on Monday, and employers must now check them again before the end of the month, as the new order says.</p>`,
  ).join('');

const page = (teaser: string) => `<!doctype html><html><head><title>New rules</title></head><body>
  <article class="story"><h1>New rules</h1><div class="body-text">
    ${prose(0, 3)}${teaser}${prose(3, 6)}
  </div></article></body></html>`;

describe('inline teasers', () => {
  it('drops a teaser named by its custom element', () => {
    const md = htmlToMarkdown(
      page(
        '<pp-inline-teaser><h3>Questions about safety at work</h3><div><p class="text">All the answers on the topic in one place.</p></div></pp-inline-teaser>',
      ),
      URL,
    );
    assert.doesNotMatch(md, /All the answers on the topic/);
    assert.match(md, /Paragraph 2:/);
    assert.match(md, /Paragraph 3:/);
  });

  it('drops an inline text box named by class', () => {
    const md = htmlToMarkdown(
      page(
        '<div class="a-inline-textbox"><p class="a-inline-textbox__synopsis">Highlights from the magazine: batteries, recycling and the new lithium plants in one issue.</p></div>',
      ),
      URL,
    );
    assert.doesNotMatch(md, /Highlights from the magazine/);
    assert.match(md, /Paragraph 5:/);
  });

  it('keeps a box that is not named as a teaser', () => {
    const md = htmlToMarkdown(
      page(
        '<div class="note"><p>Note: the rules apply to every employer, large or small.</p></div>',
      ),
      URL,
    );
    assert.match(md, /Note: the rules apply/);
  });
});
