/**
 * Teasers of other pages inside an article (teaser-excerpts.ts): cards whose links all go
 * to one other page and whose excerpt is cut short with an ellipsis go when the article
 * holds two or more and they are a small part of it; one such card, and a listing made of
 * them, stay. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://wetter.example.at/klima/news/jahresbericht-2021';

const prose = (from: number, to: number) =>
  Array.from(
    { length: to - from },
    (_, i) =>
      `<p>Absatz ${from + i}: die Messreihen reichen in den Alpen bis in das achtzehnte Jahrhundert zurück und zeigen, wie stark sich die Temperatur seither verändert hat, im Sommer wie im Winter.</p>`,
  ).join('');

const card = (slug: string, title: string, excerpt: string) =>
  `<div class="teaser"><dl><dd class="img"><a href="https://wetter.example.at/produkte/${slug}"><img src="/${slug}.jpg" alt=""></a></dd><dt>${title}</dt><dd><p>${excerpt}… <a href="https://wetter.example.at/produkte/${slug}">mehr</a></p></dd></dl></div>`;

const page = (inner: string) => `<!doctype html><html><head><title>Jahresbericht 2021</title></head>
  <body><div class="main"><h1>Jahresbericht 2021</h1>${prose(0, 5)}${inner}</div></body></html>`;

describe('teaser excerpts', () => {
  it('drops two cards that link to one page each and cut their excerpt short', () => {
    const md = htmlToMarkdown(
      page(
        card('gutachten', 'Wettergutachten', 'Auskunft über vergangenes Wetter') +
          card('gitterdaten', 'Gitterdatensätze', 'Räumliche Daten für Forschung und Planung'),
      ),
      URL,
    );
    assert.doesNotMatch(md, /Auskunft über vergangenes|Räumliche Daten/);
    assert.match(md, /Absatz 4:/);
  });

  it('keeps a single card, and a paragraph that trails off into one link', () => {
    const md = htmlToMarkdown(
      page(
        `${card('gutachten', 'Wettergutachten', 'Auskunft über vergangenes Wetter')}<p>Die Reihe wird fortgesetzt… <a href="https://wetter.example.at/histalp">HISTALP</a></p>${prose(5, 7)}`,
      ),
      URL,
    );
    assert.match(md, /Auskunft über vergangenes Wetter/);
    assert.match(md, /Die Reihe wird fortgesetzt/);
  });

  it('keeps the cards when they are most of the page (a listing)', () => {
    const cards = Array.from({ length: 8 }, (_, i) =>
      card(
        `produkt-${i}`,
        `Produkt ${i}`,
        `Beschreibung des Produkts ${i} für Forschung, Planung und die Versicherungen, mit Daten aus allen Stationen`,
      ),
    ).join('');
    const md = htmlToMarkdown(
      `<!doctype html><html><head><title>Produkte</title></head><body><div class="main"><h1>Produkte</h1>${prose(0, 1)}${cards}</div></body></html>`,
      URL,
    );
    assert.match(md, /Beschreibung des Produkts 3/);
  });
});
