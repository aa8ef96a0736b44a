/**
 * What a product page's template sets beside the product that the markup's shape tells
 * apart, removed after chrome removal and product-page.ts's named blocks: sentences a field
 * repeats (repeated-sentences.ts), tooltips' help (tooltips.ts), rows of link cards
 * (link-cards.ts), ARIA carousels (carousels.ts), a publisher's legal notice
 * (legal-notices.ts) and the lists of prices beside the price (price-lists.ts). Each rule
 * is its own module; this is their order, and the one place the page's flow (index.ts)
 * calls them from.
 */
import { dropCarousels } from './carousels.js';
import type { ElementNode } from './dom.js';
import { dropLegalNotices } from './legal-notices.js';
import { dropLinkCards } from './link-cards.js';
import { dropPriceLists } from './price-lists.js';
import { dropRepeatedSentences } from './repeated-sentences.js';
import { dropTooltips } from './tooltips.js';

/**
 * Removes, in place, the extras beside the product under `body`.
 * `pageTextLength`: the body's text length, measured once by the caller.
 */
export function dropProductExtras(body: ElementNode, pageTextLength: number): void {
  // a field filled from several suppliers' copies says each sentence several times
  dropRepeatedSentences(body);
  dropTooltips(body);
  dropLinkCards(body, pageTextLength);
  dropCarousels(body, pageTextLength);
  dropLegalNotices(body);
  dropPriceLists(body);
}
