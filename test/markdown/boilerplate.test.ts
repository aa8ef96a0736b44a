/**
 * Chrome removal (boilerplate.ts) on a page rendered or saved while a dialog was open: the
 * page behind the dialog is marked `aria-hidden` (issue 28: a shop's product page came out
 * empty). Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/item/1';

const PROSE = `The clutch kit fits the vans built from 2011 to 2014, and holds the pressure plate, the disc and the release bearing, each made by the first supplier of the maker, so that the kit fits without changes to the gearbox or the flywheel of the van.`;

const page = (main: string) => `<!doctype html><html><head><title>Clutch kit</title></head><body>
  <div class="dialog" role="dialog"><p>Sign in to continue</p></div>
  ${main}
  <div class="tracker" style="display:none" aria-hidden="true"><p>HIDDENTEXT tracking pixel note</p></div>
  </body></html>`;

describe('chrome removal behind an open dialog', () => {
  it('keeps the page behind a dialog that marked it aria-hidden', () => {
    const md = htmlToMarkdown(
      page(
        `<main aria-hidden="true"><h1>Clutch kit for the van</h1><p>${PROSE}</p><p>${PROSE}</p></main>`,
      ),
      URL,
    );
    assert.match(md, /The clutch kit fits the vans built from 2011/);
    assert.doesNotMatch(md, /HIDDENTEXT/);
  });

  it('still drops an aria-hidden block that holds a small part of the page', () => {
    const md = htmlToMarkdown(
      page(
        `<main><h1>Clutch kit for the van</h1><p>${PROSE}</p><p>${PROSE}</p><div aria-hidden="true"><p>ICONTEXT a decorative label</p></div></main>`,
      ),
      URL,
    );
    assert.match(md, /The clutch kit fits the vans built from 2011/);
    assert.doesNotMatch(md, /ICONTEXT/);
  });
});
