/**
 * Blocks the CSS frameworks' display utilities show in print only (boilerplate.ts): a
 * citation line and a copyright notice for the printout under a story (issue 28), not what
 * the page shows on screen. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://news.example/2019/11/astronauts';

const PARAGRAPH = `Researchers studied how crew hibernation would change the design of a mission to Mars, from the size of the habitat to the food carried, and found the spacecraft could be a third lighter than one for a crew awake all the way.`;

const story = (
  after: string,
) => `<!doctype html><html><head><title>Hibernating astronauts</title></head><body>
  <article><h1>Hibernating astronauts</h1><p>${PARAGRAPH}</p><p>${PARAGRAPH}</p><p>${PARAGRAPH}</p>${after}</article>
  </body></html>`;

describe('print-only blocks', () => {
  it('drops a block shown in print only (d-none d-print-block)', () => {
    const md = htmlToMarkdown(
      story(
        `<div class="d-none d-print-block"><div>PRINTCITATION Hibernating astronauts (2019) retrieved from ${URL}</div></div>`,
      ),
      URL,
    );
    assert.match(md, /Researchers studied how crew hibernation/);
    assert.doesNotMatch(md, /PRINTCITATION/);
  });

  it('keeps a block hidden on small screens but shown on wide ones and in print', () => {
    const md = htmlToMarkdown(
      story(
        `<div class="d-none d-md-block d-print-block"><p>WIDESCREEN The study took a reference mission of six people to Mars and back in five years.</p></div>`,
      ),
      URL,
    );
    assert.match(md, /WIDESCREEN/);
  });

  it('drops a block of the older print utilities (visible-print-block)', () => {
    const md = htmlToMarkdown(
      story(
        `<div class="visible-print-block"><p>PRINTNOTICE This document is subject to copyright.</p></div>`,
      ),
      URL,
    );
    assert.doesNotMatch(md, /PRINTNOTICE/);
  });
});
