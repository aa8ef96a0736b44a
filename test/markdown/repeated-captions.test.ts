/**
 * The lead picture's caption when it repeats the picture's alt (repeated-captions.ts): the
 * alt keeps the sentence in `![…](…)`, the caption line (and a credit appended to it) goes.
 * Captions of pictures further down the text, captions that say something else and a long
 * text that repeats the alt (a deck) stay. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://news.example.org/world/2022/05/03/harbour.html';

const prose = (from: number, to: number) =>
  Array.from(
    { length: to - from },
    (_, i) =>
      `<p>Paragraph ${from + i}: the harbour authority said on Tuesday that the new quay would open next spring, after two years of work and a long dispute over its cost.</p>`,
  ).join('');

const ALT = 'Cranes unload a container ship at the new quay in the harbour';

const page = (
  lead: string,
  inText = '',
) => `<!doctype html><html><head><title>Harbour</title></head>
  <body><article class="article"><h1>Harbour</h1>${lead}${prose(0, 3)}${inText}${prose(3, 6)}</article></body></html>`;

describe('captions that repeat the alt', () => {
  it('drops the lead picture caption that repeats its alt, with the credit after it', () => {
    const md = htmlToMarkdown(
      page(
        `<figure><a href="/big.jpg"><picture><source srcset="/a.webp"><img src="/a.jpg" alt="${ALT}"></picture></a><label for="x"></label><figcaption>${ALT}. Photograph: Jane Doe/Agency</figcaption></figure>`,
      ),
      URL,
    );
    assert.match(md, /!\[Cranes unload a container ship/);
    assert.doesNotMatch(md, /Photograph: Jane Doe/);
    assert.match(md, /Paragraph 0:/);
  });

  it('keeps a caption that says something else, and one under a picture inside the text', () => {
    const md = htmlToMarkdown(
      page(
        `<div class="visual"><img src="/a.jpg" alt="${ALT}"><figcaption>The quay seen from the old lighthouse</figcaption></div>`,
        `<div class="visual"><img src="/b.jpg" alt="The old quay before the works began in 2020"><figcaption>The old quay before the works began in 2020 (Jane Doe)</figcaption></div>`,
      ),
      URL,
    );
    assert.match(md, /The quay seen from the old lighthouse/);
    assert.match(md, /before the works began in 2020 \(Jane Doe\)/);
  });

  it('keeps a long text that repeats the alt: the deck, not a caption', () => {
    const deck = `${ALT}, and the authority expects the traffic of the port to double within ten years, which the city council doubts after the figures of the last two years were lower than promised.`;
    const md = htmlToMarkdown(
      page(
        `<div class="image"><img src="/a.jpg" alt="${deck}"><div class="hook">${deck}</div></div>`,
      ),
      URL,
    );
    assert.match(md, /which the city council doubts after the figures[^\]]*\n/);
  });
});
