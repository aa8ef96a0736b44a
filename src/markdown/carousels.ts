/**
 * Carousels on a product page: the sliding rows a shop sets beside the product ("products
 * related to this item", "customers also bought", the shop's other lines), a card or a few
 * in view and the rest behind arrows. The product's own pictures slide too, but hold no
 * text; what a carousel holds in words is other items' names and teasers, which WCXB's
 * references of product pages leave out. A carousel is told by ARIA's carousel pattern
 * (`aria-roledescription="carousel"`); the slider kits' root classes (swiper, slick,
 * splide) also wrap a product's own gallery and description (WCXB product 0.656 -> 0.638).
 */
import { type ElementNode, findFirst, outermost, removeNodes } from './dom.js';
import { textLengthUpTo } from './measure.js';

const CAROUSEL_ROLE = /^carousel$/i;
/^(?:carousel|swiper|slick-slider|splide|glide|owl-carousel|flickity-enabled)$/i;
/** A carousel holding this share of the page's text or more is the page's content. */
const MOST_OF_PAGE = 0.5;

/**
 * Removes, in place, the carousels under `body` (none holding the page's `<h1>`).
 * `pageTextLength`: the body's text length, measured once by the caller.
 */
export function dropCarousels(body: ElementNode, pageTextLength: number): void {
  const limit = pageTextLength * MOST_OF_PAGE;
  const isDoomed = (el: ElementNode) =>
    isCarousel(el) && textLengthUpTo(el, limit) < limit && !findFirst(el, 'h1');
  removeNodes(outermost(body, isDoomed));
}

function isCarousel(el: ElementNode): boolean {
  const a = el.attrs;
  if (a['aria-roledescription'] && CAROUSEL_ROLE.test(a['aria-roledescription'].trim())) {
    return true;
  }
  return false;
}
