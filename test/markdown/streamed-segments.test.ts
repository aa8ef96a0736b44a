/**
 * React's streamed segments (streamed-segments.ts): a page whose markup as sent shows only
 * its header, the content following hidden in `<div hidden id="S:…">` blocks that a
 * script moves into their `<template id="B:…">` / `P:…` placeholders, is converted with
 * each segment in its place; a page whose markup as sent yields its content keeps its late
 * segments hidden. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/chairs/oak-chair';

const menu = Array.from(
  { length: 40 },
  (_, i) => `<li><a href="/c/${i}">Category number ${i} of the shop's many departments</a></li>`,
).join('');

const details = `<h2>Details</h2><p>Solid oak frame with a hand-rubbed oil finish; the seat is woven
  from paper cord by hand, and the back is steamed and bent from one piece of timber.</p>
  <p>Every chair is assembled and inspected in our workshop before it ships, flat-packed
  in recycled cardboard, with the tools needed to put it together.</p>`;

const page = (shown: string) => `<!doctype html><html><head><title>Oak chair</title></head><body>
  <header><nav><ul>${menu}</ul></nav></header>
  <main>${shown}<template id="B:1"></template><div><template id="P:2"></template></div></main>
  <div hidden id="S:1"><div class="product-name"><h1>Oak dining chair</h1></div></div>
  <script>$RC("B:1","S:1")</script>
  <div hidden id="S:2"><section class="product-details">${details}</section></div>
  <script>$RS("S:2","P:2")</script></body></html>`;

describe("React's streamed segments", () => {
  it('puts the segments in their placeholders when the page as sent yields too little', () => {
    const md = htmlToMarkdown(page(''), URL);
    assert.match(md, /Solid oak frame/);
    assert.match(md, /assembled and inspected/);
    assert.doesNotMatch(md, /Category number 3/);
  });

  it('keeps the late segments hidden when the page as sent yields its content', () => {
    const shown = `<article><h1>Oak dining chair</h1><p>Our oak dining chair is made to last a
      lifetime: its joints are pegged, not screwed, and its finish is renewed with a cloth and
      a little oil whenever it looks dry.</p><p>It comes in natural oak or a smoked finish
      that darkens the grain, and both are sealed against spills at the table.</p></article>`;
    const md = htmlToMarkdown(page(shown), URL);
    assert.match(md, /pegged, not screwed/);
    assert.doesNotMatch(md, /Solid oak frame/);
  });
});
