/**
 * A product page's template sections after the product: a shop sets, below the block that
 * holds the product's name, its buy box and its description, a run of full-width sections
 * of its own (the brand's story, a guide shared by every product, a photo wall, "get the
 * look"), each with its own heading or image. They are the site's, not the product's.
 */
import { type ElementNode, findFirst, removeNodes } from './dom.js';
import { innerText, textLength } from './measure.js';

/** Characters the product's block holds at least: its name, buy box and description. */
const PRODUCT_BLOCK_TEXT = 1000;

const HEADING = /^h[2-6]$/;

/**
 * Removes, in place, the sections after the product's block under `body`: the lowest
 * ancestor of the page's first `<h1>` holding PRODUCT_BLOCK_TEXT characters; each later
 * sibling that has a heading or an image, and no `<h1>` or form, goes. Only when the
 * `<h1>` names a product of `names` (the page's schema.org Product names, lower case): a
 * collection's title over its list and the buying guide after it names none.
 */
export function dropTrailingSections(body: ElementNode, names: readonly string[]): void {
  const h1 = findFirst(body, 'h1');
  if (!h1 || !namesProduct(h1, names)) return;
  let block: ElementNode = h1;
  while (textLength(block) < PRODUCT_BLOCK_TEXT) {
    const parent = block.parent;
    if (!parent || parent === body) return;
    block = parent;
  }
  const parent = block.parent;
  if (!parent) return;
  const siblings = parent.children;
  const doomed: ElementNode[] = [];
  for (let i = siblings.indexOf(block) + 1; i < siblings.length; i++) {
    const sibling = siblings[i];
    if (sibling?.type !== 'element') continue;
    if (templateSection(sibling)) doomed.push(sibling);
  }
  removeNodes(doomed);
}

function templateSection(el: ElementNode): boolean {
  let headed = false;
  let form = false;
  const walk = (node: ElementNode): void => {
    for (const child of node.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'h1' || child.tag === 'form') form = true;
      else if (HEADING.test(child.tag) || child.tag === 'img') headed = true;
      walk(child);
    }
  };
  walk(el);
  return headed && !form;
}

const squash = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Whether the heading says one of `names` (either may hold a size or colour the other lacks). */
function namesProduct(h1: ElementNode, names: readonly string[]): boolean {
  const heading = squash(innerText(h1));
  if (heading.length === 0) return false;
  return names.some((name) => {
    const key = squash(name);
    return key.length > 0 && (key.startsWith(heading) || heading.startsWith(key));
  });
}
