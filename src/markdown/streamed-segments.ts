/**
 * React's streaming server rendering, as a browser shows it. A component that suspends is
 * sent first as a placeholder (`<template id="B:1">` for a boundary, `<template id="P:1">`
 * for a segment) and its markup later, at the end of the body, in `<div hidden id="S:1">`,
 * with an inline script (`$RC("B:1","S:1")`, `$RS("S:1","P:1")`) that moves it into place.
 * Read as sent, that markup is hidden and far from where it belongs: a shop's product
 * details, specifications and description panels are such late segments. The id suffix
 * pairs a segment with its placeholder (React writes them so); the markup goes where the
 * browser puts it. A page without React's protocol is left alone.
 */
import type { ElementNode } from './dom.js';

/** React's placeholder and segment ids: `B:` or `P:`, and `S:`, then a base-32 number. */
const PLACEHOLDER = /^[BP]:([0-9a-z]+)$/;
const SEGMENT = /^S:([0-9a-z]+)$/;

/** A segment's id as React writes it (`<div hidden id="S:1">`), looked for in the source. */
const SEGMENT_ID = /\sid=["']?S:[0-9a-z]+["'\s>]/;

/**
 * Whether the page's source may hold streamed segments: a look at the string, so a page
 * without them is not parsed again.
 */
export function mayHoldStreamedSegments(html: string): boolean {
  return SEGMENT_ID.test(html);
}

/** Moves, in place, each streamed segment of `root` into its placeholder; gives how many moved. */
export function placeStreamedSegments(root: ElementNode): number {
  const placeholders = new Map<string, ElementNode>();
  const segments: [string, ElementNode][] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      const id = child.attrs.id;
      if (id !== undefined) {
        const placeholder = child.tag === 'template' ? PLACEHOLDER.exec(id) : null;
        const segment =
          child.tag === 'div' && child.attrs.hidden !== undefined ? SEGMENT.exec(id) : null;
        if (placeholder) placeholders.set(placeholder[1] as string, child);
        else if (segment) segments.push([segment[1] as string, child]);
      }
      walk(child);
    }
  };
  walk(root);
  let placed = 0;
  for (const [key, segment] of segments) {
    const placeholder = placeholders.get(key);
    if (!placeholder || within(placeholder, segment)) continue;
    if (replace(placeholder, segment)) placed++;
  }
  return placed;
}

/** Whether `el` is `ancestor` or lies inside it (a segment is never moved into itself). */
function within(el: ElementNode, ancestor: ElementNode): boolean {
  for (let e: ElementNode | null = el; e; e = e.parent) if (e === ancestor) return true;
  return false;
}

/** Puts `segment`'s children where `placeholder` stands; both leave the tree. */
function replace(placeholder: ElementNode, segment: ElementNode): boolean {
  const parent = placeholder.parent;
  const from = segment.parent;
  if (!parent || !from) return false;
  const at = parent.children.indexOf(placeholder);
  if (at < 0) return false;
  from.children = from.children.filter((c) => c !== segment);
  segment.parent = null;
  for (const child of segment.children) child.parent = parent;
  // the segment may have stood in the placeholder's parent, before it
  parent.children.splice(parent.children.indexOf(placeholder), 1, ...segment.children);
  placeholder.parent = null;
  return true;
}
