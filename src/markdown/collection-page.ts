/**
 * Collection pages that say they are products. A category page names a featured item (or
 * each card) a schema.org Product, and shop platforms set `og:type` product on every page
 * of a catalogue; a product page's own grids are a row or two of related items. So a page
 * whose markup says product is still read as a collection when its grids hold a
 * collection's number of cards: in one grid whatever the claim, or in all of its grids
 * together when only the meta claims a product (a collection set out in one grid per
 * sub-category, none of them long). Shapes and counts, never the page's words.
 */
import type { ElementNode } from './dom.js';
import type { PageGrids } from './product-grid.js';
import { saysProductByMetaOnly } from './product-page.js';

/** A grid of this many cards, or all grids together on a meta-only claim, is a collection. */
const COLLECTION_CARDS = 12;

/** Whether a page whose markup says it is a product (product-page.ts) shows a collection. */
export function showsCollection(
  root: ElementNode,
  jsonLd: readonly string[],
  grids: PageGrids,
): boolean {
  if ((grids.best?.cards ?? 0) >= COLLECTION_CARDS) return true;
  return grids.cards >= COLLECTION_CARDS && saysProductByMetaOnly(root, jsonLd);
}
