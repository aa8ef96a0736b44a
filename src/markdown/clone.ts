/**
 * Deep copy of a light-tree element. Extraction mutates its input, and a retry with laxer
 * flags needs the tree as it was; copying is several times cheaper than parsing again.
 */
import type { ElementNode } from './dom.js';

export function cloneElement(el: ElementNode, parent: ElementNode | null = null): ElementNode {
  const copy: ElementNode = { type: 'element', tag: el.tag, attrs: el.attrs, children: [], parent };
  for (const child of el.children) {
    copy.children.push(
      child.type === 'text'
        ? { type: 'text', text: child.text, parent: copy, measured: child.measured }
        : cloneElement(child, copy),
    );
  }
  return copy;
}
