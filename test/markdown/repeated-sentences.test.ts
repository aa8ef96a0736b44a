/**
 * A product page's field filled from several copies of one text (repeated-sentences.ts):
 * each sentence is said once. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/p/atlas-of-rivers';

const reviews = [
  '"A patient and generous survey of the rivers that shaped the towns along them."',
  '"Every map in it tells a story that the text then walks you through."',
  'Few books of its kind are this easy to read and this hard to put down.',
  'It belongs on the shelf of anyone who has ever followed a river to the sea!',
].join(' ');

const page = (head: string, field: string) => `<!doctype html><html><head>
  <title>Atlas of Rivers</title>${head}</head><body>
  <div class="product"><h1>Atlas of Rivers</h1><p class="price">$24.00</p>
  <p>A hardcover atlas of the world's great rivers, with two hundred maps drawn for the book
  and an essay on each river's history, its towns, its bridges and the people who live by it.</p>
  <dl><dt>Pages</dt><dd>320</dd><dt>Reviews</dt><dd>${field}</dd></dl></div></body></html>`;

const product =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Atlas of Rivers"}</script>';

const count = (text: string, part: string) => text.split(part).length - 1;

describe('repeated sentences on a product page', () => {
  it('keeps one copy of each sentence a field repeats, whatever its spacing and quotes', () => {
    const copies = `${reviews} ${reviews.replace(/"/g, '“')} ${reviews.replace(/\. /g, ' . ')} ${reviews}`;
    const md = htmlToMarkdown(page(product, copies), URL);
    assert.equal(count(md, 'patient and generous survey'), 1);
    assert.equal(count(md, 'followed a river to the sea'), 1);
    assert.match(md, /two hundred maps/);
  });

  it('leaves the text alone on a page that is not a product', () => {
    const copies = `${reviews} ${reviews}`;
    const md = htmlToMarkdown(page('', copies), URL);
    assert.equal(count(md, 'patient and generous survey'), 2);
  });
});
