/**
 * Readability's sibling step (extract.ts): beside the best-scoring block, a paragraph of
 * prose joins the article. A div around one paragraph and nothing else (sites wrap the lead,
 * or each paragraph, in one) is that paragraph, as Readability reduces it. Pages written for
 * the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findFirst, parseDocument } from '../../src/markdown/dom.js';
import { htmlToMarkdown } from '../../src/markdown/index.js';
import { collectScorable } from '../../src/markdown/scorable.js';

const URL = 'https://news.example.com/story.html';

const body = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Paragraph ${i} of the story, with enough words, commas, clauses and detail to be scored as prose by the extractor, which reads it as the body of the article.</p>`,
).join('');

const page = (lead: string) => `<!doctype html><html><head><title>A story</title></head><body>
  <div class="layout"><div class="column">
    ${lead}
    <div class="textBlock">${body}</div>
    <div class="links"><a href="/a">Other story one</a> <a href="/b">Other story two</a></div>
  </div></div></body></html>`;

describe('paragraphs beside the best block', () => {
  it('joins a lead wrapped in a div of its own', () => {
    const md = htmlToMarkdown(
      page(
        '<div class="leadIn"><p>The lead says in a sentence or two what the story is about, and who is in it.</p></div>',
      ),
      URL,
    );
    assert.match(md, /The lead says in a sentence/);
    assert.match(md, /Paragraph 5 of the story/);
    assert.doesNotMatch(md, /Other story one/);
  });

  it('leaves a wrapper with more than the paragraph, or a link-heavy one, to the scores', () => {
    const md = htmlToMarkdown(
      page(
        '<div class="box"><p><a href="/c">A teaser that is only a link to another story on the site, and long enough.</a></p></div>',
      ),
      URL,
    );
    assert.match(md, /Paragraph 5 of the story/);
    assert.doesNotMatch(md, /A teaser that is only a link/);
  });
});

const sectioned = `<!doctype html><html><head><title>An event</title></head><body>
  <div class="layout"><div class="column">
    <div class="event-intro"><div class="wrapper"><p>The intro says in two sentences what the event is, who it is for, where it takes place and why a visitor should come to it at all this year, and what it costs.</p></div></div>
    <div class="event-details">${body}</div>
    <div class="event-contact"><div class="wrapper"><p>When you send us a request through the contact form, we store the details you give us there for the purpose of handling it and for follow-up questions.</p></div></div>
  </div></div></body></html>`;

describe('sections of prose beside the best block', () => {
  it('joins an intro in a section of its own before the text, not a notice after it', () => {
    const md = htmlToMarkdown(sectioned, URL);
    assert.match(md, /The intro says in two sentences/);
    assert.match(md, /Paragraph 5 of the story/);
    assert.doesNotMatch(md, /contact form/);
  });
});

const nested = (before: string) => `<!doctype html><html><head><title>A story</title></head><body>
  <div class="layout"><div class="story">
    ${before}
    <div class="main-column"><div class="date">3 May 2024</div><div class="textBlock">${body}</div></div>
    <div class="after-story"><div class="wrapper"><p>When you send us a request through the contact form, we store the details you give us there for the purpose of handling it and for follow-up questions.</p></div></div>
  </div></div></body></html>`;

describe('sections of prose before the wrappers of the best block', () => {
  it('joins a lead that sits beside the column holding the text', () => {
    const md = htmlToMarkdown(
      nested(
        '<div class="leader"><div class="inner"><p>The lead says in two sentences what the story is about, who is in it, where it happened and why a reader should care about it at all, and when it will be over.</p></div></div>',
      ),
      URL,
    );
    assert.match(md, /^# A story\n\nThe lead says in two sentences/);
    assert.match(md, /Paragraph 5 of the story/);
    assert.doesNotMatch(md, /contact form/);
  });

  it('leaves a block of links there out', () => {
    const md = htmlToMarkdown(
      nested(
        '<div class="teasers"><div class="inner"><p><a href="/t">A teaser for another story on this site, which is a link from its first word to its last one, and long.</a></p></div></div>',
      ),
      URL,
    );
    assert.match(md, /Paragraph 5 of the story/);
    assert.doesNotMatch(md, /A teaser for another story/);
  });
});

const modules = (
  intro: string,
) => `<!doctype html><html><head><title>Loan interest</title></head><body>
  <div class="page-wrapper">
    <div class="site-header"><a href="/">Loans</a> <a href="/about">About</a></div>
    ${intro}
    <div class="module text-module"><div class="container">${body}</div></div>
  </div></body></html>`;

describe('unlikely names around prose', () => {
  it('keeps an intro module named "header" that holds a paragraph of prose', () => {
    const md = htmlToMarkdown(
      modules(
        '<div class="guide-header-module"><div class="text"><p>What the interest on a personal loan is made of, how the bank computes it from the amount, the term and your credit standing, and what you can do to lower it before you sign anything, is explained on this page.</p></div></div>',
      ),
      URL,
    );
    assert.match(md, /What the interest on a personal loan is made of/);
    assert.match(md, /Paragraph 5 of the story/);
    assert.doesNotMatch(md, /About/);
  });

  it('still strips a header that holds no paragraph of prose', () => {
    const md = htmlToMarkdown(
      modules(
        '<div class="guide-header-module"><div class="text"><p>Loans made simple, since 2007.</p></div></div>',
      ),
      URL,
    );
    assert.match(md, /Paragraph 5 of the story/);
    assert.doesNotMatch(md, /Loans made simple/);
  });

  it('still strips a site header whose mega menu holds a teaser among many links', () => {
    const links = Array.from(
      { length: 30 },
      (_, i) => `<li><a href="/section-${i}">Section number ${i} of the site</a></li>`,
    ).join('');
    const teaser =
      '<p>A teaser in the menu about a service of the office, written as a sentence, with commas, long enough to be a paragraph of prose on its own, which it is not, as the reader will agree after reading it twice.</p>';
    const html = `<html><body><div class="l-header"><ul>${links}</ul><div class="flyout">${teaser}</div></div><div class="guide-header-module">${teaser}</div></body></html>`;
    const body = findFirst(parseDocument(html).root, 'body');
    assert.ok(body);
    collectScorable(body, 'News', {
      stripUnlikely: true,
      weightClasses: true,
      cleanConditionally: true,
    });
    const kept = body.children.filter((c) => c.type === 'element').map((c) => c.attrs.class);
    assert.deepEqual(kept, ['guide-header-module']);
  });
});
