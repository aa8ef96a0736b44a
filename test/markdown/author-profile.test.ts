/**
 * An author box the page marks up as the article's author (schema.org microdata: an item
 * that is the `author` property) goes when it says more than a name, whatever its classes;
 * an item as long as an article (the text marked up as its author's) stays. Pages written
 * for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://blog.example.de/2019/04/lightroom-performance/';

const prose = (from: number, to: number) =>
  Array.from(
    { length: to - from },
    (_, i) =>
      `<p>Absatz ${from + i}: nach dem letzten Video bekam ich von drei Lesern einen hilfreichen Tipp zur Auflösung des Bildschirms, den ich hier gern mit allen teilen möchte, die dasselbe Problem haben.</p>`,
  ).join('');

const page = (
  box: string,
) => `<!doctype html><html><head><title>Lightroom-Performance</title></head>
  <body><div class="post"><h1>Lightroom-Performance</h1>${prose(0, 2)}${box}${prose(2, 4)}</div></body></html>`;

describe('author profiles', () => {
  it('drops the microdata author item that holds a line about the person', () => {
    const md = htmlToMarkdown(
      page(
        '<div class="sabox-wrap" itemtype="http://schema.org/Person" itemscope itemprop="author"><img src="/avatar.jpg" alt=""><div class="sabox-name"><span itemprop="name">Paddy</span></div><div class="sabox-desc"><div itemprop="description"><p>Fotograf aus Hamburg und Gründer dieses Blogs. Ich mag jede Art von Fotografie, am liebsten mit Menschen.</p></div></div></div>',
      ),
      URL,
    );
    assert.doesNotMatch(md, /Ich mag jede Art von Fotografie/);
    assert.match(md, /Absatz 3:/);
  });

  it('keeps an author item that holds the text itself (over a thousand characters)', () => {
    const md = htmlToMarkdown(
      page(
        `<div itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Paddy</span>${prose(10, 17)}</div>`,
      ),
      URL,
    );
    assert.match(md, /Absatz 16:/);
  });
});
