/**
 * Service and landing pages (issue 28): a column of sibling sections (a hero, features,
 * steps, questions), each a heading and a few lines. The Readability-style scorer keeps the
 * section with the most prose; the sections around it (page-sections.ts) are the content
 * when they are prose rather than links. Pages written for the test, without a `<main>`
 * (page-region.ts would take that) and without `og:type` article.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://agency.example/services/packaging';

const INTRO = `We design packaging for cosmetics brands, from the first sketch to the printed box, and we work with your team at every step, so that the shelf, the unboxing and the online shop tell one story about your product.`;

const section = (name: string, lines: string[]) =>
  `<section class="module module-${name}"><div class="container"><h2>${name} heading</h2>${lines
    .map((line) => `<div class="line">${line}</div>`)
    .join('')}</div></section>`;

const page = `<!doctype html><html><head><title>Packaging design</title></head><body>
  <nav class="menu"><a href="/">Home</a> <a href="/work">Work</a> <a href="/about">About</a></nav>
  ${section('hero', [`<p>${INTRO}</p>`])}
  ${section('features', ['FEATURE1 Custom dielines for every size', 'FEATURE2 Print-ready artwork files', 'FEATURE3 Sustainable board and inks'])}
  ${section('steps', ['STEP1 Discovery call with your brand team', 'STEP2 Three concepts within two weeks', 'STEP3 Revisions until the proof is right'])}
  ${section('questions', ['QUESTION1 How long does a project take? About six weeks.', 'QUESTION2 Do you print as well? We work with trusted printers.'])}
  <div class="links"><a href="/a">LINKS1 Branding</a> <a href="/b">Web design</a> <a href="/c">Illustration</a> <a href="/d">Photography</a></div>
  </body></html>`;

describe('the sections around the extracted text', () => {
  it('keeps every prose section of a service page beside the one the scorer chose', () => {
    const md = htmlToMarkdown(page, URL);
    assert.match(md, /We design packaging for cosmetics brands/);
    for (const mark of ['FEATURE1', 'FEATURE3', 'STEP2', 'QUESTION2'])
      assert.match(md, new RegExp(mark));
    assert.doesNotMatch(md, /LINKS1/);
  });

  it('leaves a page that says it is an article to the scorer', () => {
    const article = page.replace('<title>', '<meta property="og:type" content="article"><title>');
    const md = htmlToMarkdown(article, URL);
    assert.match(md, /We design packaging for cosmetics brands/);
    assert.doesNotMatch(md, /FEATURE1/);
  });
});
