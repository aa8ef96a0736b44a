/**
 * Photo credits on a line of their own beside a picture (picture-credits.ts): "Name/Agency"
 * and "© Name" after the picture or after its caption go; the caption stays, and so does a
 * line of the same shape that is not beside a picture, and a sentence after a picture.
 * Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://magazine.example.de/stars/2022/vater-und-sohn.html';

const prose = (from: number, to: number) =>
  Array.from(
    { length: to - from },
    (_, i) =>
      `<p>Absatz ${from + i}: der Schauspieler sprach in einem langen Gespräch über seine Familie, über die Jahre am Set und darüber, was er seinen Kindern heute anders raten würde.</p>`,
  ).join('');

const page = (inner: string) => `<!doctype html><html><head><title>Vater und Sohn</title></head>
  <body><article class="article"><h1>Vater und Sohn</h1>${prose(0, 2)}${inner}${prose(2, 5)}</article></body></html>`;

describe('picture credits', () => {
  it('drops a Name/Agency line after a picture and its caption, and a © line after a picture', () => {
    const md = htmlToMarkdown(
      page(
        '<figure><div class="img-wrapper"><img src="/a.jpg" alt="Vater, Sohn"><figcaption>Der Star mit seinem ältesten Sohn</figcaption></div><span class="description">Judy Eddy/WENN.com</span></figure>' +
          '<div class="gallery-item"><img src="/b.jpg" alt=""><p>© Tourismusverband Fläming e.V.</p></div>',
      ),
      URL,
    );
    assert.doesNotMatch(md, /Judy Eddy|Tourismusverband/);
    assert.match(md, /Der Star mit seinem ältesten Sohn/);
    assert.match(md, /Absatz 4:/);
  });

  it('keeps the same shape away from pictures, and a sentence after a picture', () => {
    const md = htmlToMarkdown(
      page(
        '<p>Timer / Abschaltfunktion</p><figure><img src="/c.jpg" alt=""></figure><p>Er lacht / sie nicht, sagt er heute über die Zeit.</p><figure><img src="/d.jpg" alt=""></figure><p>24/7</p>',
      ),
      URL,
    );
    assert.match(md, /Timer \/ Abschaltfunktion/);
    assert.match(md, /Er lacht \/ sie nicht, sagt er heute/);
    assert.match(md, /^24\/7$/m);
  });
});
