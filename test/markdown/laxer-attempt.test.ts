/**
 * The laxer attempt (index.ts longestAttempt): when the strict pass reaches enough text
 * from one block and the next pass, which keeps unlikely-named boxes, finds that block with
 * twice its text around it, the wider result is the content; a laxer pass that finds only
 * another block (a sidebar) is not taken. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const sentence = (topic: string, i: number) =>
  `<p>Our ${topic} service number ${i} helps households plan the work, compare the quotes of three local firms, and book a visit at a time that suits them, with a written estimate.</p>`;
const block = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => sentence(topic, i + 1)).join('');

describe('the laxer extraction attempt', () => {
  it('takes the wider pass that holds the strict pass and twice its text', () => {
    const html = `<html><body><div class="wrap"><div class="services">
      <div class="intro">${block('plumbing', 3)}</div>
      <div class="extra-services">${block('roofing', 8)}</div>
    </div><div class="foot"><p>Call us today.</p></div></div></body></html>`;
    const md = htmlToMarkdown(html, 'https://example.org/services');
    assert.match(md, /plumbing service number 1/);
    assert.match(md, /roofing service number 8/);
  });

  it('keeps the strict pass when the laxer one adds only a little', () => {
    const html = `<html><body><div class="wrap"><div class="services">
      <div class="intro">${block('plumbing', 6)}</div>
      <div class="extra-services">${block('roofing', 1)}</div>
    </div><div class="foot"><p>Call us today.</p></div></div></body></html>`;
    const md = htmlToMarkdown(html, 'https://example.org/services');
    assert.match(md, /plumbing service number 6/);
    assert.doesNotMatch(md, /roofing/);
  });
});
