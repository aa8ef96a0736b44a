/**
 * Text measures the extractor decides with: visible text, link density, class weight.
 * Lengths are of whitespace-collapsed text, as a reader sees it.
 */
import type { ElementNode, Node } from './dom.js';

export function innerText(node: Node): string {
  const parts: string[] = [];
  collect(node, parts);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

function collect(node: Node, parts: string[]): void {
  if (node.type === 'text') {
    parts.push(node.text);
    return;
  }
  for (const child of node.children) collect(child, parts);
}

/** Share of the element's text that sits inside links; `#` links count less (in-page). */
export function linkDensity(node: ElementNode, textLength = innerText(node).length): number {
  if (textLength === 0) return 0;
  let linkLength = 0;
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'a') {
        const href = child.attrs.href ?? '';
        const coefficient = href.startsWith('#') && href.length > 1 ? 0.3 : 1;
        linkLength += innerText(child).length * coefficient;
      } else walk(child);
    }
  };
  walk(node);
  return linkLength / textLength;
}

const POSITIVE =
  /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i;
const NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i;

/** Readability's class weight: ±25 for each of class and id that looks like content or chrome. */
export function classWeight(node: ElementNode): number {
  let weight = 0;
  const cls = node.attrs.class;
  if (cls) {
    if (NEGATIVE.test(cls)) weight -= 25;
    if (POSITIVE.test(cls)) weight += 25;
  }
  const id = node.attrs.id;
  if (id) {
    if (NEGATIVE.test(id)) weight -= 25;
    if (POSITIVE.test(id)) weight += 25;
  }
  return weight;
}

export function countTag(node: ElementNode, tags: ReadonlySet<string>): number {
  let n = 0;
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (tags.has(child.tag)) n++;
    n += countTag(child, tags);
  }
  return n;
}

export function elementsByTag(
  node: ElementNode,
  tags: ReadonlySet<string>,
  out: ElementNode[] = [],
) {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (tags.has(child.tag)) out.push(child);
    elementsByTag(child, tags, out);
  }
  return out;
}

export function hasAncestor(node: ElementNode, tag: string, maxDepth = 3): boolean {
  let depth = 0;
  for (let p = node.parent; p; p = p.parent) {
    if (maxDepth > 0 && depth > maxDepth) return false;
    if (p.tag === tag) return true;
    depth++;
  }
  return false;
}

export function elementChildren(node: ElementNode): ElementNode[] {
  return node.children.filter((c): c is ElementNode => c.type === 'element');
}
