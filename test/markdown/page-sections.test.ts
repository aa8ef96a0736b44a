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

  it('keeps the sections of a service page that says og:type article', () => {
    // WordPress themes declare every page an article, service pages too
    const article = page.replace('<title>', '<meta property="og:type" content="article"><title>');
    const md = htmlToMarkdown(article, URL);
    assert.match(md, /We design packaging for cosmetics brands/);
    for (const mark of ['FEATURE1', 'STEP2', 'QUESTION2']) assert.match(md, new RegExp(mark));
  });

  it('does not take a block of teasers, headings linking to other pages, as a section', () => {
    const teaser = (n: number) =>
      `<div class="teaser"><h3><a href="/story-${n}">TEASER${n} Another story of the site</a></h3><p>An excerpt of that other story, a few lines long, so that the block is prose rather than links by its share of link text, as teaser lists with long excerpts are.</p></div>`;
    const teasers = `<section class="more-stories">${[1, 2, 3, 4].map(teaser).join('')}</section>`;
    const withTeasers = page.replace('<div class="links">', `${teasers}<div class="links">`);
    const md = htmlToMarkdown(withTeasers, URL);
    assert.match(md, /FEATURE1/);
    assert.doesNotMatch(md, /TEASER1/);
  });

  it('counts headings that open an accordion (links to #) as headings, not teasers', () => {
    const item = (n: number) =>
      `<div class="item"><h5><a href="#">ACCORDION${n} How do you work with printers?</a></h5><p>We send the proofs to the printer, agree on the paper and the inks with them, and check the first sheets on the press ourselves before the run goes on.</p></div>`;
    const accordion = `<section class="module module-accordion">${[1, 2, 3].map(item).join('')}</section>`;
    const md = htmlToMarkdown(
      page.replace('<div class="links">', `${accordion}<div class="links">`),
      URL,
    );
    assert.match(md, /ACCORDION1/);
    assert.match(md, /FEATURE1/);
  });
});

describe('the sections of the block that holds the extracted text', () => {
  const P = (s: string) =>
    `<p>${s} We plan each project with the client's team, write down what the result must do, and check it against that list at every step, so that nothing is left to chance and the budget holds.</p>`;
  // bands nested as site builders nest them (band, grid, row, column); `contact` is a
  // class the scorer weighs down, so it leaves that band out of the ones it joins
  const band = (name: string, inner: string) =>
    `<div class="band ${name}"><div class="grid"><div class="row"><div class="col">${inner}</div></div></div></div>`;
  const visit = band(
    'contact',
    `<h2>Plan your visit</h2><p>VISIT1 Come and see the studio, we are in the old harbour, in the red brick house beside the ferry, where the boxes of thirty years of work stand on the shelves.</p><p>Bring your product and your ideas: we will look at them with you over a coffee, and show you what other brands did with theirs.</p>`,
  );
  const bands = (
    extra: string,
  ) => `<!doctype html><html><head><title>Packaging design</title></head><body>
    <nav class="menu"><a href="/">Home</a> <a href="/work">Work</a></nav>
    <div class="page">
    ${band('intro', `<h2>What we do</h2>${P('INTRO1 We design packaging.')}${P('We design boxes.')}${P('We design labels.')}`)}
    ${band('method', `<h2>How we work</h2>${P('METHOD1 We start with a call.')}${P('Then concepts.')}`)}
    ${extra}
    </div>
    <footer><a href="/legal">Legal</a></footer></body></html>`;

  it('keeps a headed band of prose the scorer left out between the ones it kept', () => {
    const md = htmlToMarkdown(bands(visit), URL);
    for (const mark of ['INTRO1', 'METHOD1', 'VISIT1']) assert.match(md, new RegExp(mark));
  });

  it('keeps a band named like boilerplate between two kept ones, trimmed on its own', () => {
    const offer = band(
      'cta-banner',
      `<h2>Our offer</h2><p>OFFER1 A first concept for free: send us your brief and we answer within a week with a sketch of the box and the costs of printing it.</p><p>Ask for it by mail or on the phone, whichever suits you, and tell us about the product.</p>`,
    );
    const page = bands(visit).replace(
      '<div class="band method">',
      `${offer}<div class="band method">`,
    );
    const md = htmlToMarkdown(page, URL);
    for (const mark of ['INTRO1', 'OFFER1', 'METHOD1']) assert.match(md, new RegExp(mark));
  });

  it('leaves out a newsletter box, a heading over a line and a form', () => {
    const letter = band(
      'contact',
      '<h2>LETTER1 Our letter</h2><p>Once a month, the studio news.</p><form><input type="email"><button>Sign up</button></form>',
    );
    const md = htmlToMarkdown(bands(`${visit}${letter}`), URL);
    assert.match(md, /VISIT1/);
    assert.doesNotMatch(md, /LETTER1/);
  });

  it('leaves out a band of teasers, headings over a line each', () => {
    const teaser = (n: number) =>
      `<h3>TEASER${n} Another of our projects</h3><p>A box for a tea house, in two colours.</p>`;
    const teasers = band('contact', [1, 2, 3, 4, 5].map(teaser).join(''));
    const md = htmlToMarkdown(bands(teasers), URL);
    assert.match(md, /METHOD1/);
    assert.doesNotMatch(md, /TEASER1/);
  });
});
