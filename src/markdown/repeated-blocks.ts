/**
 * Blocks a page holds twice. Responsive shop templates write the buy box and the product's
 * description once for wide screens and once for narrow ones (`hidden-down-md` beside
 * `hidden-up-md`) and let the style sheet show one; without style sheets both are in the
 * markup, and the content says everything twice. The second copy of a block whose text
 * equals an earlier block's is dropped, whatever the language: it adds no content.
 */
import { type ElementNode, removeNodes } from './dom.js';
import { innerText, textLength } from './measure.js';

/**
 * A block shorter than this (characters) is not compared: short lines (a size, a label,
 * "Add to cart") repeat on purpose and say little.
 */
const MIN_BLOCK = 40;

/** Removes, in place, every block of `content` whose text an earlier block already holds. */
export function dropRepeatedBlocks(content: ElementNode): void {
  const seen = new Set<string>();
  const doomed: ElementNode[] = [];
  // `within`: the text of the element being walked, which a wrapper's only block repeats
  const walk = (el: ElementNode, within: string): void => {
    for (const child of el.children) {
      if (child.type !== 'element' || textLength(child) < MIN_BLOCK) continue;
      const text = innerText(child);
      if (text !== within) {
        if (seen.has(text)) {
          doomed.push(child);
          continue;
        }
        seen.add(text);
      }
      walk(child, text);
    }
  };
  walk(content, '');
  removeNodes(doomed);
}
