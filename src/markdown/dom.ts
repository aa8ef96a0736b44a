/**
 * A minimal mutable HTML tree built straight from htmlparser2's callbacks. A full DOM
 * (linkedom) costs several times more to build and walk than the extraction itself, and
 * the converter needs only tags, attributes, text and parent links.
 */
import { streamTags, type TagHandler } from './tag-stream.js';

export interface TextNode {
  type: 'text';
  text: string;
  parent: ElementNode | null;
  /**
   * The text's own measures (measure.ts textFigures), kept with the string they were
   * taken of: extraction measures the same text nodes again for every ancestor and pass.
   */
  measured?: TextFigures;
}

/** A text node's whitespace-collapsed measures; stale once `text` is another string. */
export interface TextFigures {
  of: string;
  /** Collapsed, trimmed length. */
  length: number;
  /** Starts (ends) with whitespace; for text of whitespace only, holds any. */
  lead: boolean;
  trail: boolean;
  /** `,` `，` `、` in the text. */
  commas: number;
  /** Characters that are not whitespace (copies that break their lines elsewhere agree). */
  solid: number;
  /** The text whitespace-collapsed and trimmed (innerText's answer), once asked. */
  collapsed: string | null;
}

export interface ElementNode {
  type: 'element';
  tag: string;
  attrs: Record<string, string>;
  children: Node[];
  parent: ElementNode | null;
  /**
   * Memos of per-element checks that extraction repeats for every ancestor (quadratic
   * without them). Stored on the node so they live and die with one tree; copies made
   * for a retry start without them.
   */
  memo?: {
    contentless?: boolean;
    dataTable?: boolean;
    figures?: { text: number; links: number; prose: boolean };
  };
}

export type Node = TextNode | ElementNode;

/**
 * Elements whose content is never page text; skipped while parsing so they cost nothing.
 * `<noscript>` is kept for noscript.ts, which decides what of it a script-less client shows.
 */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'template',
  'svg',
  'title',
  'iframe',
  'object',
  'canvas',
  'select',
  'textarea',
]);

/** React's streaming placeholders (`<template id="B:1">`, `P:1`): streamed-segments.ts. */
const STREAM_PLACEHOLDER = /^[BP]:[0-9a-z]+$/;

/**
 * Deeper elements become children of the element at this depth, as in Chromium's parser
 * (kMaximumHTMLParserDOMTreeDepth = 512). It bounds every recursive walk, so hostile
 * nesting cannot overflow the stack or make walks quadratic.
 */
const MAX_DEPTH = 512;

export function createElement(tag: string, attrs: Record<string, string> = {}): ElementNode {
  return { type: 'element', tag, attrs, children: [], parent: null };
}

export interface ParsedDocument {
  root: ElementNode;
  /** `<title>` text, '' when missing. */
  title: string;
  /** `<base href>` as written, or null. */
  baseHref: string | null;
  /** The text of each `<script type="application/ld+json">` (schema.org data), in order. */
  jsonLd: string[];
}

/** `tap`, when given, is handed every event of the stream too, dropped elements' included. */
export function parseDocument(html: string, tap?: TagHandler): ParsedDocument {
  const root = createElement('#root');
  let current = root;
  // depth inside a dropped element; while > 0 nothing is attached to the tree
  let dropDepth = 0;
  let dropTag = '';
  let title = '';
  let inTitle = false;
  let baseHref: string | null = null;
  let depth = 0;
  let flattened = 0;
  const jsonLd: string[] = [];
  // the JSON-LD script being read, null outside one
  let script: string | null = null;

  streamTags(html, {
    onopentag(name, attribs) {
      tap?.onopentag(name, attribs);
      if (name === 'base' && baseHref === null && attribs.href) baseHref = attribs.href;
      if (name === 'title' && !title) inTitle = true;
      if (name === 'script' && /ld\+json/i.test(attribs.type ?? '')) script = '';
      if (dropDepth > 0) {
        if (name === dropTag) dropDepth++;
        return;
      }
      if (DROPPED_WITH_CONTENT.has(name)) {
        // React's streaming placeholders stay (empty): streamed-segments.ts puts the
        // markup sent later in their place
        if (name === 'template' && STREAM_PLACEHOLDER.test(attribs.id ?? '')) {
          const el = createElement(name, attribs);
          el.parent = current;
          current.children.push(el);
        }
        dropDepth = 1;
        dropTag = name;
        return;
      }
      const el = createElement(name, attribs);
      el.parent = current;
      current.children.push(el);
      if (depth >= MAX_DEPTH) {
        flattened++;
        return;
      }
      current = el;
      depth++;
    },
    ontext(data) {
      tap?.ontext(data);
      if (inTitle) title += data;
      if (script !== null) script += data;
      if (dropDepth > 0) return;
      const last = current.children[current.children.length - 1];
      if (last && last.type === 'text') last.text += data;
      else current.children.push({ type: 'text', text: data, parent: current });
    },
    onclosetag(name) {
      tap?.onclosetag(name);
      if (name === 'title') inTitle = false;
      if (name === 'script' && script !== null) {
        jsonLd.push(script);
        script = null;
      }
      if (dropDepth > 0) {
        if (name === dropTag) dropDepth--;
        return;
      }
      if (flattened > 0) {
        // the stream closes every element it opened, so the counts pair up
        flattened--;
        return;
      }
      // the stream reports closes only for open elements, innermost first
      if (current.tag === name && current.parent) {
        current = current.parent;
        depth--;
      }
    },
  });
  return { root, title: title.trim(), baseHref, jsonLd };
}

/** Removes many nodes with one pass per parent (one-by-one removal is quadratic). */
export function removeNodes(nodes: readonly Node[]): void {
  if (nodes.length === 0) return;
  const doomed = new Set<Node>(nodes);
  const parents = new Set<ElementNode>();
  for (const node of nodes) if (node.parent) parents.add(node.parent);
  for (const parent of parents) parent.children = parent.children.filter((c) => !doomed.has(c));
  for (const node of nodes) node.parent = null;
}

/** Elements an outermost-match walk visits at most: it is bounded on hostile pages. */
const MAX_WALKED = 50_000;

/**
 * The outermost elements under `root` for which `matches` holds (what is inside a match is
 * not looked at), visiting at most MAX_WALKED elements. The rules that drop a kind of
 * block (tooltips, carousels, price lists) share it: a match's inside goes with it.
 */
export function outermost(root: ElementNode, matches: (el: ElementNode) => boolean): ElementNode[] {
  let budget = MAX_WALKED;
  const found: ElementNode[] = [];
  const stack: ElementNode[] = [root];
  while (stack.length > 0 && budget-- > 0) {
    const el = stack.pop() as ElementNode;
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (matches(child)) found.push(child);
      else stack.push(child);
    }
  }
  return found;
}

/**
 * Calls `visit` with the element children of every element under `root` (and of `root`)
 * that has from 2 to `most` of them, innermost first: the rules that read a handful of
 * siblings as one set (a tab set's panels, an accordion's items) share it; a longer list of
 * children is not such a set.
 */
export function forEachSiblingSet(
  root: ElementNode,
  most: number,
  visit: (kids: readonly ElementNode[]) => void,
): void {
  const walk = (el: ElementNode): void => {
    const kids: ElementNode[] = [];
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      kids.push(child);
      walk(child);
    }
    if (kids.length >= 2 && kids.length <= most) visit(kids);
  };
  walk(root);
}

/** Depth-first list of elements under (not including) `root`, in document order. */
export function descendants(root: ElementNode, out: ElementNode[] = []): ElementNode[] {
  for (const child of root.children) {
    if (child.type === 'element') {
      out.push(child);
      descendants(child, out);
    }
  }
  return out;
}

export function findFirst(root: ElementNode, tag: string): ElementNode | null {
  for (const child of root.children) {
    if (child.type !== 'element') continue;
    if (child.tag === tag) return child;
    const found = findFirst(child, tag);
    if (found) return found;
  }
  return null;
}

/** Whether an element under `root` declares a microdata `itemtype` matching `type`. */
export function hasItemType(root: ElementNode, type: RegExp): boolean {
  for (const child of root.children) {
    if (child.type !== 'element') continue;
    if (child.attrs.itemtype?.split(/\s+/).some((t) => type.test(t))) return true;
    if (hasItemType(child, type)) return true;
  }
  return false;
}

export function textContent(node: Node): string {
  if (node.type === 'text') return node.text;
  let s = '';
  for (const child of node.children) s += textContent(child);
  return s;
}
