/**
 * A product grid the content holds with more around it keeps its cards' facts
 * (card-facts.ts): the trims read each card's `rating` box as a post's rating widget
 * and took it; in a card it is the item's rating. A card's button row stays out, and a
 * rating box beside an article stays boilerplate. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example/c/tents';

const card = (i: number) => `<li class="tile">
  <a href="/product/${i}/tent-${i}"><h3>Trailhead backpacking tent number ${i}, two person</h3></a>
  <p class="price">$${120 + i}.95</p>
  <div class="cdr-rating"><span class="cdr-rating__caption">${i}4 reviews with an average rating of 4.${i} out of 5 stars</span></div>
  <div class="tile-button-row"><a href="/cart/${i}">Compare this tent now</a></div>
  <ul class="tile-attributes"><li>Weight: 1.${i} kg</li><li>Capacity: 2 people</li></ul></li>`;

const guide =
  'Think of the nights you will spend in it: how many sleep inside, whether a dog or a pile of gear shares the floor, and how much wind and rain the season brings where you walk.';

const page = `<!doctype html><html><head><title>Tents</title></head><body>
  <div id="top"><a href="/">Shop Example</a></div>
  <div class="category">
    <h1>Camping tents</h1>
    <p>Find a tent for every trip, from a quick overnight at the lake to a week in the high country. Our tents are tested by staff in wind, rain and snow, and each one comes with its footprint and stakes, so you can pitch it the day it arrives and sleep dry from the first night on.</p>
    <p>Sort: Best Match. Showing 6 of 83 products, with filters for capacity, weight and seasons.</p>
    <ul class="grid">${Array.from({ length: 6 }, (_, i) => card(i)).join('')}</ul>
    <h2>How to choose a tent</h2>
    <p>${guide}</p><p>${guide}</p><p>${guide}</p>
  </div>
  <div class="bottom"><p>Shop Example, all rights reserved.</p></div></body></html>`;

describe("the facts of a product grid's cards inside wider content", () => {
  it('keeps each card its rating box, in its place, without its button row', () => {
    const md = htmlToMarkdown(page, URL);
    assert.match(md, /Find a tent for every trip/);
    for (let i = 0; i < 6; i++) {
      assert.match(md, new RegExp(`${i}4 reviews with an average rating of 4\\.${i}`));
    }
    assert.ok(md.indexOf('4 reviews with') > md.indexOf('$120.95'), 'after the price');
    assert.ok(
      md.indexOf('04 reviews with') < md.indexOf('Weight: 1.0 kg'),
      'before the attributes',
    );
  });

  it('leaves a rating box beside an article out', () => {
    const md = htmlToMarkdown(
      `<!doctype html><html><head><title>Tents</title></head><body><article><h1>Tents</h1>
      <p>${guide}</p><p>${guide}</p><p>${guide}</p>
      <div class="post-rating"><span>Rate this story: 4.5 out of 5</span></div></article></body></html>`,
      URL,
    );
    assert.match(md, /Think of the nights/);
    assert.doesNotMatch(md, /Rate this story/);
  });
});
