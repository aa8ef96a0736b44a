/**
 * A framework's dialog (cloaked-forms.ts): a block hidden until the script compiles it
 * (`v-cloak`), shown on a condition (`v-if`), holding a form, is not the page's content; a
 * cloaked conditional block without a form stays. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/products/wool-runner';

const page = (dialog: string) => `<!doctype html><html><head><title>Wool Runner</title>
  <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Wool Runner"}</script>
  </head><body><main><div class="product"><h1>Wool Runner</h1>
  <p>DESCRIBED The Wool Runner is made from soft merino wool that keeps feet cool in summer
  and warm in winter, with a cushioned sole that carries you through a long day of walking.</p>
  <p>Its laces are made from recycled bottles and its insoles from castor bean oil, so the
  whole shoe leaves a smaller footprint than the trainers it replaces, season after season.</p>
  <div v-cloak v-if="discount == null"><span>SEASONAL Twenty percent off this week</span></div>
  ${dialog}</div></main></body></html>`;

const dialog = `<div v-cloak v-if="isNotifyOpen" class="modal"><h3>Notify me when back in stock</h3>
  <p>NOTIFIED Once limited edition colours sell out they are gone for good, but new colours
  arrive every season and we will write to you the moment this one is back on the shelf.</p>
  <form><input type="email" name="email"><button type="submit">Notify me</button></form>
  <div v-if="isNotifySuccess"><p>We got your details and will keep you in the loop.</p></div></div>`;

describe('cloaked dialogs', () => {
  it('drops a cloaked conditional block holding a form', () => {
    const md = htmlToMarkdown(page(dialog), URL);
    assert.match(md, /DESCRIBED/);
    assert.doesNotMatch(md, /NOTIFIED/);
  });

  it('keeps the same block without its form, and conditional blocks without one', () => {
    const md = htmlToMarkdown(page(dialog.replace(/<form>.*?<\/form>/s, '')), URL);
    assert.match(md, /NOTIFIED/);
    assert.match(md, /SEASONAL/);
  });
});
