/**
 * A product page's ARIA tab set (unselected-tabs.ts): the selected tab's panel stays, the
 * other tabs' panels go unless they hold a specification table. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const URL = 'https://shop.example.com/p/sunflower-seeds';

const product =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Sunflower Seeds"}</script>';

const tab = (id: string, name: string, selected: boolean) =>
  `<li role="tab" id="tab-title-${id}" aria-controls="tab-${id}"${selected ? ' aria-selected="true"' : ''}><a href="#tab-${id}">${name}</a></li>`;

const page = (selected: string) => `<!doctype html><html><head>
  <title>Sunflower Seeds</title>${product}</head><body>
  <div class="product"><h1>Sunflower Seeds</h1>
  <div class="tabs"><ul role="tablist">${tab('description', 'Description', selected === 'description')}
  ${tab('storage', 'Storage', selected === 'storage')}${tab('nutrition', 'Nutrition', false)}</ul>
  <div role="tabpanel" id="tab-description"><h2>Description</h2>
  <p>DESCRIBED Sunflower seeds start as the centre of the bright yellow sunflower. As the head
  of the flower ages, the seeds dry and the hulls are removed to reveal soft, tasty seeds.</p>
  <p>They are dense with vitamins and minerals that are often hard to obtain, such as vitamin
  E and zinc, and make a fine addition to muesli, porridge and smoothies.</p></div>
  <div role="tabpanel" id="tab-storage"><h2>Storage</h2>
  <p>STORED For optimum freshness keep them in a cool place away from moisture and direct
  sunlight, in a tightly sealed bag or container.</p>
  <p>Once opened, the seeds keep their flavour for three months; toast them lightly in a dry
  pan to bring back their crunch when they have been stored for a while.</p></div>
  <div role="tabpanel" id="tab-nutrition"><h2>Nutrition</h2>
  <p>Typical values of the seeds as sold, measured by an accredited laboratory on a sample of
  each harvest before it is packed, and given here per hundred grams.</p><table>
  <tr><th>Energy</th><td>2410kj / 581kcal per hundred grams</td></tr>
  <tr><th>Fat</th><td>47.5g, of which saturates 6.58g</td></tr>
  <tr><th>Carbohydrate</th><td>18.6g, of which sugars 1.7g</td></tr>
  <tr><th>Protein</th><td>19.8g per hundred grams of seeds</td></tr></table></div>
  </div></div></body></html>`;

const linkTab = (id: string, name: string, selected: boolean) =>
  `<li class="tta-tab${selected ? ' vc_active' : ''}"><a href="#${id}">${name}</a></li>`;

/** A page builder's tab set: no ARIA, the tabs links to sibling panels, one marked active. */
const builderPage = (selected: string) => `<!doctype html><html><head>
  <title>Sunflower Seeds</title>${product}</head><body>
  <div class="product"><h1>Sunflower Seeds</h1>
  <p>Sunflower seeds start as the centre of the bright yellow sunflower. As the head of the
  flower ages, the seeds dry and the hulls are removed to reveal soft, tasty seeds.</p>
  <div class="tta"><ul class="tta-tabs">${linkTab('why', 'Why', selected === 'why')}
  ${linkTab('faq', 'Questions', selected === 'faq')}${linkTab('inside', 'Inside', selected === 'inside')}</ul>
  <div class="tta-panels"><div class="tta-panel" id="why"><p>WHY They are dense with vitamins
  and minerals that are often hard to obtain, such as vitamin E and zinc, and make a fine
  addition to muesli, porridge and smoothies of every kind.</p></div>
  <div class="tta-panel" id="faq"><p>ASKED How should the seeds be stored? For optimum
  freshness keep them in a cool place away from moisture and direct sunlight, sealed.</p></div>
  <div class="tta-panel" id="inside"><p>INSIDE Hulled sunflower seeds, grown and dried on one
  farm, roasted lightly in small batches and packed by hand in a paper bag.</p></div>
  </div></div></div></body></html>`;

describe('tab sets on a product page', () => {
  it('keeps the panel of the link tab marked active in a set without ARIA', () => {
    const md = htmlToMarkdown(builderPage('inside'), URL);
    assert.match(md, /INSIDE/);
    assert.doesNotMatch(md, /WHY|ASKED/);
  });

  it('keeps every panel of a link list with no item marked (a table of contents)', () => {
    const md = htmlToMarkdown(builderPage(''), URL);
    assert.match(md, /WHY/);
    assert.match(md, /ASKED/);
    assert.match(md, /INSIDE/);
  });

  it('keeps the first panel when no tab is marked selected, and the specification table', () => {
    const md = htmlToMarkdown(page(''), URL);
    assert.match(md, /DESCRIBED/);
    assert.doesNotMatch(md, /STORED/);
    assert.match(md, /Protein/);
  });

  it('keeps the panel of the tab marked selected', () => {
    const md = htmlToMarkdown(page('storage'), URL);
    assert.match(md, /STORED/);
    assert.doesNotMatch(md, /DESCRIBED/);
  });
});
