/**
 * An element's text as a reader sees it: its text nodes in document order, without the
 * code of the `<script>` and `<style>` elements inside it (a selected script or style
 * element itself gives its own text, so a JSON-LD block can be extracted). Iterative and
 * bounded: nested elements on a hostile page would otherwise read the same text once per
 * level, and the recursion would follow the page's depth.
 */
import type { PageElement, PageNode } from './page-tree.js';

const CODE = new Set(['script', 'style']);

/** At most `max` characters of the element's text (the whole text when it is shorter). */
export function elementText(element: PageElement, max = Number.POSITIVE_INFINITY): string {
  if (CODE.has(element.type)) return childText(element).slice(0, max);
  const parts: string[] = [];
  let length = 0;
  const pending: PageNode[] = [...element.children].reverse();
  for (let node = pending.pop(); node !== undefined && length < max; node = pending.pop()) {
    if (node.type === 'text') {
      const data = (node as { data: string }).data;
      parts.push(data);
      length += data.length;
    } else if (node.type === 'tag' || node.type === 'cdata') {
      const children = (node as PageElement).children;
      for (let i = children.length - 1; i >= 0; i--) pending.push(children[i] as PageNode);
    }
  }
  const text = parts.join('');
  return text.length > max ? text.slice(0, max) : text;
}

function childText(element: PageElement): string {
  return element.children.map((node) => (node.type === 'text' ? node.data : '')).join('');
}

/** Whitespace runs (newlines, tabs, no-break spaces) as one space, trimmed. */
export function cleanText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
