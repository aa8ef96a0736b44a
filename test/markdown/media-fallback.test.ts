/**
 * A video's or an audio player's content is the fallback of a browser that plays neither
 * (serialize.ts): not written, while the text around the player is. Pages written for the
 * test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://news.example/kettles';

const page = (player: string) => `<!doctype html><html><head><title>Kettles</title></head><body>
  <article><h1>How a kettle is hammered</h1>
  <p>The copper is annealed over a charcoal fire until it glows, then hammered cold on a stake, a ring at a time, from the centre outwards.</p>
  ${player}
  <p>A kettle takes three days of work; the spout is raised separately from a strip and soldered on last, once the body holds its shape.</p></article></body></html>`;

describe("a media player's fallback", () => {
  it('leaves out what a video holds for browsers that cannot play it', () => {
    const md = htmlToMarkdown(
      page(
        '<video controls><source src="/k.mp4" type="video/mp4">Your browser does not support the video tag.</video>',
      ),
      URL,
    );
    assert.match(md, /annealed over a charcoal fire/);
    assert.match(md, /soldered on last/);
    assert.doesNotMatch(md, /does not support/);
  });

  it("leaves out an audio player's download link", () => {
    const md = htmlToMarkdown(
      page('<audio controls src="/k.mp3"><a href="/k.mp3">Download the interview</a></audio>'),
      URL,
    );
    assert.match(md, /soldered on last/);
    assert.doesNotMatch(md, /Download the interview/);
  });
});
