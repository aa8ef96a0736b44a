/**
 * Hostile page shapes (issue 28, point 4): nesting, long runs and large counts that made a
 * pass of the converter quadratic. Each page is built here; what is asserted is the output
 * (the text kept, its size bounded), never the time: the guard timeout only stops a run that
 * went quadratic again (bench/markdown-hostile.ts measures the times).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://example.com/story.html';
const GUARD = { timeout: 120_000 };
const PROSE =
  'The river rose overnight and the town council met at dawn to plan the evacuation of the lower streets. ';
const page = (body: string, title = 'A story') =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;
const lines = (md: string) => md.split('\n');

describe('hostile shapes: deep nesting', () => {
  it(
    'writes quotes nested hundreds deep with every level’s text and a bounded number of markers',
    GUARD,
    () => {
      const levels = 500;
      const open = Array.from(
        { length: levels },
        (_, i) => `<blockquote><p>Level ${i} says this.</p>`,
      );
      const md = htmlToMarkdown(
        page(`<article>${open.join('')}${'</blockquote>'.repeat(levels)}</article>`),
        URL,
      );
      for (let i = 0; i < levels; i++) assert.match(md, new RegExp(`Level ${i} says this\\.`));
      const markers = Math.max(
        ...lines(md).map((l) => (/^[> ]*/.exec(l)?.[0] ?? '').split('>').length - 1),
      );
      assert.ok(markers <= 16, `${markers} quote markers on one line`);
      assert.ok(md.length < 120 * levels, `${md.length} characters`);
    },
  );

  it('writes lists nested hundreds deep with every item and a bounded indentation', GUARD, () => {
    const levels = 500;
    const md = htmlToMarkdown(
      page(
        `<article>${PROSE}${Array.from({ length: levels }, (_, i) => `<ul><li>Item ${i} here`).join('')}</article>`,
      ),
      URL,
    );
    for (let i = 0; i < levels; i++) assert.match(md, new RegExp(`Item ${i} here`));
    const indent = Math.max(...lines(md).map((l) => (/^ */.exec(l)?.[0] ?? '').length));
    assert.ok(indent <= 40, `indented by ${indent}`);
    assert.ok(md.length < 80 * levels, `${md.length} characters`);
  });

  it('keeps the text once under links and emphasis nested hundreds deep', GUARD, () => {
    const levels = 400;
    const md = htmlToMarkdown(
      page(`<article><p>${'<a href="/x"><b><i>'.repeat(levels)}${PROSE.repeat(20)}</p></article>`),
      URL,
    );
    assert.equal(md.split('The river rose overnight').length - 1, 20);
    assert.ok(md.length < PROSE.length * 20 + 2_000, `${md.length} characters`);
  });

  it('keeps a long text once under hundreds of nested headings and figures', GUARD, () => {
    const text = PROSE.repeat(2_000);
    for (const wrapper of ['<h1><span>', '<h2><span>', '<figure><img src="/a.png"><figcaption>']) {
      const md = htmlToMarkdown(page(`${wrapper.repeat(400)}${text}`), URL);
      assert.equal(md.split('The river rose overnight').length - 1, 2_000, wrapper);
      assert.ok(md.length < text.length + 20_000, `${wrapper}: ${md.length} characters`);
    }
  });
});

describe('hostile shapes: long runs and many siblings', () => {
  it(
    'keeps thousands of teaser cards that are the whole page, and a card under deep wrappers',
    GUARD,
    () => {
      const cards =
        '<div><a href="/x">Title</a><p>An excerpt cut short…</p><a href="/x">more</a></div>';
      const md = htmlToMarkdown(
        page(
          `<article><p>${PROSE}</p>${cards.repeat(5_000)}${'<div>'.repeat(2_000)}${cards}${'</div>'.repeat(2_000)}</article>`,
        ),
        URL,
      );
      assert.equal(md.split('An excerpt cut short').length - 1, 5_001);
    },
  );

  it('converts a gallery of 16,000 pictures in a row with every picture', GUARD, () => {
    const md = htmlToMarkdown(
      page(`<article><p>${PROSE}</p>${'<img src="/p.jpg" alt="photo">'.repeat(16_000)}</article>`),
      URL,
    );
    assert.equal(md.split('![photo](https://example.com/p.jpg)').length - 1, 16_000);
  });

  it('keeps both ends of a code block holding a long run of blank lines', GUARD, () => {
    const md = htmlToMarkdown(
      page(
        `<article><p>${PROSE}</p><pre>first line${'\n'.repeat(400_000)}last line</pre></article>`,
      ),
      URL,
    );
    assert.match(md, /```\nfirst line\n/);
    assert.match(md, /\nlast line\n```/);
  });

  it('collapses spaces spread over many elements inside emphasis and before a break', GUARD, () => {
    const spaces = '<span> </span>'.repeat(300_000);
    const md = htmlToMarkdown(
      page(`<article><p><b>bold${spaces}words</b> then a${spaces}break<br>after</p></article>`),
      URL,
    );
    assert.match(md, /\*\*bold words\*\* then a break {2}\nafter/);
  });
});

describe('hostile shapes: the title heading', () => {
  it('does not take a heading many times longer than the title for its repeat', () => {
    const heading = 'Flood warning '.repeat(40);
    const md = htmlToMarkdown(
      page(`<article><h2>${heading}</h2><p>${PROSE.repeat(4)}</p></article>`, 'Flood warning'),
      URL,
      // without the headline, whose own clean-up takes out a leading block that says it
      { headline: false },
    );
    assert.match(md, /## (Flood warning ){39}Flood warning$/m);
  });
});

describe('hostile shapes: a product page', () => {
  const product =
    '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Kettle"}</script>';
  const shop = (body: string) =>
    `<!doctype html><html><head><title>Kettle</title>${product}</head><body><h1>Kettle</h1><p>${PROSE.repeat(3)}</p>${body}</body></html>`;

  it('drops a list of 20,000 link cards and keeps the product', GUARD, () => {
    const card = `<li><a href="/n"><img src="/n.jpg" alt="">Notes from the workshop on the new kettle</a></li>`;
    const md = htmlToMarkdown(shop(`<ul>${card.repeat(20_000)}</ul>`), URL);
    assert.match(md, /The river rose overnight/);
    assert.ok(md.length < 10_000, `${md.length} characters`);
  });

  it('reads 20,000 copyright lines under one wrapper and keeps the product', GUARD, () => {
    const notice = '<p>© 2026 Kettle Works.</p>';
    const md = htmlToMarkdown(shop(`<div><div>${notice.repeat(20_000)}</div></div>`), URL);
    assert.match(md, /The river rose overnight/);
  });
});
