/**
 * Calls to action in a short block of their own (related-links.ts): the template's appeal
 * to subscribe, sign up or download the app, and its prompt to log in before commenting, go, in several languages; a sentence of the
 * story that mentions signing up stays. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://news.example.com/sport/story.html';

const prose = (from: number, to: number) =>
  Array.from(
    { length: to - from },
    (_, i) =>
      `<p>Paragraph ${from + i}: the coach has just over a month to prepare the team for the crucial fixtures, and the absence of local competition is a problem for the players.</p>`,
  ).join('');

const page = (block: string) => `<!doctype html><html><head><title>Fixtures</title></head><body>
  <article class="story"><h1>Fixtures</h1>${prose(0, 3)}${block}${prose(3, 6)}</article>
  </body></html>`;

describe('calls to action', () => {
  for (const appeal of [
    'Subscribe now to our <a href="/e">eEdition</a> for the full story.',
    'Never miss the latest news by signing up to our newsletter today!',
    '¿Ya sabías que tenemos canal de Telegram? Únete desde tu celular en este <a href="https://t.me/x">enlace</a>.',
    'Jetzt abonnieren und keine Folge verpassen.',
    'You must be logged in to post a comment.',
    'Sie müssen sich <a href="/login">einloggen</a>, um sich an einer Diskussion beteiligen zu können.',
    '<strong>Möchten Sie den Artikel teilen?</strong>',
    'Share this article',
    'Verpasse keine News!',
    'Never miss a story: turn on notifications.',
  ]) {
    it(`drops "${appeal.slice(0, 30)}…"`, () => {
      const md = htmlToMarkdown(page(`<p>${appeal}</p>`), URL);
      assert.doesNotMatch(md, new RegExp(appeal.slice(0, 20).replace(/[?¿]/g, '.')));
      assert.match(md, /Paragraph 2:/);
      assert.match(md, /Paragraph 3:/);
    });
  }

  it('keeps a sentence of the story that mentions signing up', () => {
    const md = htmlToMarkdown(
      page('<p>More than 2,000 fans sign up for the supporters club every season.</p>'),
      URL,
    );
    assert.match(md, /More than 2,000 fans sign up/);
  });

  it('keeps a sentence of the story about sharing', () => {
    const md = htmlToMarkdown(
      page("<p>I'm going to share a bit of my story so you know how I came up with this.</p>"),
      URL,
    );
    assert.match(md, /share a bit of my story/);
  });
});
