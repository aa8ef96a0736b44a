/**
 * The page's named text container taken whole (index.ts, cleanedContainer): when the scorer
 * keeps one block of the container (a recipe's FAQ) and the container, cleaned, holds twice
 * as much prose (the recipe card's ingredients and steps beside it), the whole container is
 * the content. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://recipes.example.com/lemon-cake.html';

const faq = Array.from(
  { length: 4 },
  (_, i) =>
    `<h4>Question ${i} about the cake?</h4><p>Answer ${i}: the cake stays moist because of the ratio of eggs, butter and juice, which keeps the crumb soft, and because it bakes on a tray, quickly, at a moderate heat, so it does not dry out.</p>`,
).join('');

const steps = Array.from(
  { length: 8 },
  (_, i) =>
    `<li class="recipe-instruction"><span class="recipe-instruction-text">Step ${i}: mix the ingredients of this step in a bowl until smooth and set them aside</span></li>`,
).join('');

const ingredients = Array.from(
  { length: 12 },
  (_, i) => `<li class="recipe-ingredient"><span>${i + 1} spoons of ingredient ${i}</span></li>`,
).join('');

const comments = Array.from(
  { length: 3 },
  (_, i) =>
    `<li class="comment"><p>Reader ${i} writes: I baked this cake on Sunday and it came out moist, light and lemony.</p><a href="#reply">Reply</a></li>`,
).join('');

const page = `<!doctype html><html><head><title>Lemon cake</title></head><body>
  <div class="site"><main class="content"><article class="post">
    <header><h1>Lemon cake</h1></header>
    <div class="entry-content">
      <div class="recipe-card">
        <h3>Ingredients</h3><ul class="recipe-ingredients">${ingredients}</ul>
        <h3>Steps</h3><ol class="recipe-instructions">${steps}</ol>
      </div>
      <div class="faq"><div class="faq-wrap"><div class="faq-inner"><div class="faq-box-content">${faq}</div></div></div></div>
      <ol class="comment-list">${comments}</ol>
    </div>
  </article></main>
  <aside class="sidebar"><p>About me: I bake.</p></aside></div></body></html>`;

describe('the named text container taken whole', () => {
  it('keeps the recipe card beside the FAQ the scorer prefers', () => {
    const md = htmlToMarkdown(page, URL);
    assert.match(md, /Question 3 about the cake/);
    assert.match(md, /Step 7: mix the ingredients/);
    assert.match(md, /12 spoons of ingredient 11/);
    assert.doesNotMatch(md, /About me/);
    assert.doesNotMatch(md, /Reader 1 writes/);
  });
});

const sentence = (topic: string, i: number) =>
  `Sentence ${i} about ${topic}, written out at length, with commas, so that it reads as prose.`;

const shopPage = `<!doctype html><html><head><title>A red wine</title></head><body>
  <header><a href="/">Shop</a></header>
  <section class="content-main">
    <div class="product-box"><h1>A red wine</h1>
      <p>${Array.from({ length: 6 }, (_, i) => sentence('the price and delivery', i)).join(' ')}</p>
    </div>
    <div class="tab-menu--product">
      <div class="tab--header"><a href="#description">Description</a></div>
      <div class="tab--content">
        ${Array.from({ length: 5 }, (_, i) => `<p>${Array.from({ length: 3 }, (_, j) => sentence(`the taste of the wine ${i}`, j)).join(' ')}</p>`).join('')}
      </div>
    </div>
  </section>
  <footer><p>Imprint, terms and conditions.</p></footer></body></html>`;

describe('the named text container taken whole, tabs included', () => {
  it('keeps the text of a tab panel whose wrapper is named like a menu', () => {
    const md = htmlToMarkdown(shopPage, URL);
    assert.match(md, /Sentence 5 about the price/);
    assert.match(md, /Sentence 2 about the taste of the wine 4/);
    assert.doesNotMatch(md, /Imprint/);
  });
});
