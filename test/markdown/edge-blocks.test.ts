/**
 * jusText-style edges of an extracted article (edge-blocks.ts, stopwords.ts): short blocks
 * without function words or mostly links before the first and after the last sentence go;
 * sentences, headings, lists, tables and code stay, and so does anything between sentences.
 * Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';
import { stopwordDensity } from '../../src/markdown/stopwords.js';

const URL = 'https://example.com/news/story.html';

const PROSE = Array.from(
  { length: 5 },
  (_, i) =>
    `<p>Paragraph ${i}: the council met on Tuesday and agreed that the new bridge would be built over the river before the end of the year, although the budget is still not final and the vote was close.</p>`,
).join('');

const page = (inner: string) =>
  `<!doctype html><html><head><title>The bridge</title></head><body>
  <nav><a href="/">Home</a></nav>
  <div class="story">${inner}</div>
  <footer><p>Footer of the site</p></footer></body></html>`;

const md = (inner: string) => htmlToMarkdown(page(inner), URL);

describe('stopword density', () => {
  it('is about a third or more for sentences and zero for labels, in several languages', () => {
    assert.ok(stopwordDensity('The council met on Tuesday and agreed to build it').density > 0.3);
    assert.ok(
      stopwordDensity('Der Rat hat am Dienstag beschlossen, die Brücke zu bauen').density > 0.3,
    );
    assert.ok(
      stopwordDensity('Le conseil a décidé de construire le pont sur la rivière').density > 0.3,
    );
    assert.equal(stopwordDensity('Termine / Ausschreibungen').density, 0);
    assert.equal(stopwordDensity('Partner: Acme Corporation, Widget Industries').density, 0);
    assert.deepEqual(stopwordDensity('2024 — 12:30'), { density: 0, words: 0 });
  });
});

describe('edges of the article', () => {
  it('drops labels before the first and after the last sentence', () => {
    const out = md(
      `<div class="kicker">Regional News</div>${PROSE}<div class="partners">Partner: Acme Corporation, Widget Industries</div><div>Upcoming Events</div>`,
    );
    assert.match(out, /Paragraph 0:/);
    assert.match(out, /Paragraph 4:/);
    assert.doesNotMatch(out, /Regional News/);
    assert.doesNotMatch(out, /Acme Corporation/);
    assert.doesNotMatch(out, /Upcoming Events/);
  });

  it('drops a short, mostly-link line at the end', () => {
    const out = md(`${PROSE}<p><a href="/newsroom">Back to the newsroom</a></p>`);
    assert.doesNotMatch(out, /Back to the newsroom/);
  });

  it('keeps a short closing sentence, a heading first, and labels between sentences', () => {
    const out = md(
      `<h2>Background</h2>${PROSE.slice(0, PROSE.length / 2)}<p>Kosten und Termine</p>${PROSE}<p>Thanks for reading, and see you next week.</p>`,
    );
    assert.match(out, /^## Background$/m);
    assert.match(out, /Kosten und Termine/);
    assert.match(out, /Thanks for reading, and see you next week\./);
  });

  it('keeps lists, tables and code at the edges: short by nature, without function words', () => {
    const out = md(
      `${PROSE}<ul><li>Steel beams</li><li>Concrete piles</li></ul><table><tr><td>Length</td><td>120 m</td></tr><tr><td>Width</td><td>14 m</td></tr></table><pre><code>npm install bridge</code></pre>`,
    );
    assert.match(out, /- Steel beams/);
    assert.match(out, /\| Length \| 120 m \|/);
    assert.match(out, /npm install bridge/);
  });

  it('judges text in a language the lists do not cover by its links alone', () => {
    // Arabic: not among the merged lists, so its sentences have no stopwords either
    const arabic = Array.from(
      { length: 5 },
      (_, i) =>
        `<p>الفقرة ${i}: ذهب الرجل إلى السوق في الصباح واشترى بعض الفاكهة والخضروات الطازجة من البائع الذي يعرفه منذ سنوات طويلة، ثم عاد إلى بيته وجلس مع أولاده في الحديقة وتحدثوا عن المدرسة والأصدقاء والكتب الجديدة التي قرأوها هذا الأسبوع.</p>`,
    ).join('');
    const out = md(`${arabic}<p>نهاية المقال</p><p><a href="/other">مقالات أخرى</a></p>`);
    assert.match(out, /نهاية المقال/);
    assert.doesNotMatch(out, /مقالات أخرى/);
  });

  it('drops headings at the head that head nothing, keeps a heading over its section', () => {
    const out = md(`<h2>Club finder</h2><h2>Upcoming events</h2><h2>The bridge vote</h2>${PROSE}`);
    assert.doesNotMatch(out, /Club finder|Upcoming events/);
    assert.match(out, /## The bridge vote/);
    const nested = md(`<h2>The bridge vote</h2><h3>What was decided</h3>${PROSE}`);
    assert.match(nested, /## The bridge vote/);
    assert.match(nested, /### What was decided/);
  });

  it('drops a label ending with a colon that closes the article, keeps one over what follows', () => {
    const out = md(
      `${PROSE}<h3>Die Karte zum Abspeichern:</h3><div class="map-widget"><iframe src="/map"></iframe></div>`,
    );
    assert.doesNotMatch(out, /Die Karte zum Abspeichern/);
    assert.match(out, /Paragraph 4:/);
    const kept = md(`${PROSE}<p><strong>Materials used:</strong></p><ul><li>Steel beams</li></ul>`);
    assert.match(kept, /\*\*Materials used:\*\*/);
    const chart = md(
      `${PROSE}<p>The vote, district by district:</p><figure><img src="/chart.png" alt=""></figure>`,
    );
    assert.match(chart, /district by district:/);
  });

  it("drops a section name of the site's navigation at the article's end, keeps it between sentences and as the title", () => {
    const html = (inner: string) =>
      `<!doctype html><html><head><title>The bridge</title></head><body>
      <nav><a href="/">Home</a> <a href="/news">News</a> <a href="/teams">Teams</a></nav>
      <div class="story">${inner}</div></body></html>`;
    const out = htmlToMarkdown(
      html(`${PROSE}<section class="teasers"><h2>News</h2></section>`),
      URL,
    );
    assert.doesNotMatch(out, /## News/);
    assert.match(out, /Paragraph 4:/);
    const between = htmlToMarkdown(html(`${PROSE}<h2>Teams</h2>${PROSE}<h2>Featured</h2>`), URL);
    assert.match(between, /^## Teams$/m);
    assert.match(between, /^## Featured$/m);
    // the page's own title, named alike by its menu entry
    const titled = htmlToMarkdown(html(`<h1>Teams</h1>${PROSE}`), URL);
    assert.match(titled, /^# Teams$/m);
  });

  it("drops the publisher's notice about itself at the end, keeps the story naming the site", () => {
    const html = (inner: string) =>
      `<!doctype html><html><head><title>The bridge</title>
      <meta property="og:site_name" content="Harbour Times">
      <link rel="canonical" href="https://www.harbourtimes.example/2022/bridge/"></head><body>
      <div class="story">${inner}</div></body></html>`;
    const out = htmlToMarkdown(
      html(
        `${PROSE}<p>The mayor told the Harbour Times on Monday that the vote would be repeated.</p><p>This article is the copyrighted property of Harbour Times and may not be reprinted.</p><p>For the latest news download the HarbourTimes app for your phone.</p><p>Dieser Artikel kann Links enthalten, für die Harbour Times eine Provision erhält.</p>`,
      ),
      URL,
    );
    assert.doesNotMatch(out, /copyrighted property|download the HarbourTimes app|Provision/);
    assert.match(out, /The mayor told the Harbour Times on Monday/);
  });

  it("drops the site's content licence line at the end, keeps an agency's copyright line", () => {
    const out = md(
      `${PROSE}<p><a href="https://creativecommons.org/licenses/by/4.0/">Creative Commons</a></p><p>Sofern nicht anders ausgewiesen, stehen Inhalte dieser Website unter <a href="https://creativecommons.org/licenses/by/4.0/">CC-BY</a></p>`,
    );
    assert.doesNotMatch(out, /Sofern nicht anders|Creative Commons/);
    const agency = md(
      `${PROSE}<p><em>© 2019 The Agency. All Rights Reserved. This material may not be published or redistributed.</em></p>`,
    );
    assert.match(agency, /All Rights Reserved/);
  });

  it("drops a line of the site's legal links at the end, keeps a sentence linking one", () => {
    const out = md(
      `${PROSE}<p>Read our <a href="/privacy">privacy policy</a> to learn how the council stores the votes.</p><p><a href="/impressum">IMPRESSUM</a> | <a href="/datenschutz">DATENSCHUTZ</a> | COPYRIGHT THE TOWN</p>`,
    );
    assert.doesNotMatch(out, /IMPRESSUM|DATENSCHUTZ/);
    assert.match(out, /to learn how the council stores the votes/);
  });

  it('drops captions ending with a credit before the first prose, keeps the picture', () => {
    const out = md(
      `<figure><img src="/bridge.jpg" alt=""><figcaption>The old bridge at dawn. Photo: Jane Doe</figcaption></figure><p>The river at the old bridge, in a picture of last year. Foto: Max Muster</p>${PROSE}<p>Paragraph 5 came after the photos were taken. Foto: Max Muster</p>`,
    );
    assert.doesNotMatch(out, /in a picture of last year|The old bridge at dawn/);
    assert.match(out, /!\[\]\(https:\/\/example\.com\/bridge\.jpg\)/);
    assert.match(out, /Paragraph 5 came after/);
  });

  it('judges paragraphs written as <br><br> inside one element one by one', () => {
    const runs = Array.from(
      { length: 4 },
      (_, i) =>
        `Run ${i}: the council met on Tuesday and agreed that the new bridge would be built over the river before the end of the year.`,
    ).join('<br> <br>');
    const out = md(
      `${PROSE}<p>${runs}<br><br><a href="/files/plan.pdf">Hier geht es zum Plan</a><br><br><br></p>`,
    );
    assert.doesNotMatch(out, /Hier geht es zum Plan/);
    assert.match(out, /^Run 0:.*\n\nRun 1:/m);
    assert.match(out, /Run 3:/);
  });

  it('drops a heading at the end whose section was all boilerplate, keeps an empty one', () => {
    const out = md(
      `${PROSE}<h3>Partner links</h3><p><a href="/a">Acme</a> | <a href="/b">Widget Co</a></p>`,
    );
    assert.doesNotMatch(out, /Partner links|Acme/);
    const empty = md(`${PROSE}<h3>Featured</h3>`);
    assert.match(empty, /### Featured/);
  });
});
