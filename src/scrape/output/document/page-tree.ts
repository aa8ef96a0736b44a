/**
 * A page as a domhandler tree (what css-select and htmlparser2's DomUtils work on), built from
 * the Markdown converter's linear tag stream rather than htmlparser2's Parser: the Parser's
 * open-element stack costs O(depth) per tag, so a fetched page of unclosed `<div>`s would
 * spend the whole output cap parsing. Comments, CDATA and the doctype are not kept: nothing
 * of the document output wants them.
 */
import { DomHandler, DomUtils, type parseDocument } from 'htmlparser2';
import { streamTags } from '../../../markdown/index.js';

export type PageTree = ReturnType<typeof parseDocument>;
export type PageElement = ReturnType<typeof DomUtils.findAll>[number];
export type PageNode = PageElement['children'][number];

/**
 * Deeper start tags become children of the element at this depth (Chromium's parser does the
 * same at 512), so every recursive walk (selectors, serialisation) stays bounded.
 */
const MAX_DEPTH = 512;

export function parsePage(html: string): PageTree {
  const handler = new DomHandler();
  let depth = 0;
  // elements opened past MAX_DEPTH: their close tags are not the handler's to pop
  let flattened = 0;
  streamTags(html, {
    onopentag(name, attribs) {
      handler.onopentag(name, attribs);
      if (depth >= MAX_DEPTH) {
        handler.onclosetag();
        flattened++;
      } else depth++;
    },
    ontext(data) {
      handler.ontext(data);
    },
    onclosetag() {
      // the stream closes every element it opened, innermost first, so the counts pair up
      if (flattened > 0) flattened--;
      else {
        handler.onclosetag();
        depth--;
      }
    },
  });
  handler.onend();
  return handler.root;
}

/** HTML of the nodes; text and attributes escaped, other characters kept as UTF-8. */
export function serializePage(nodes: PageTree | PageNode[]): string {
  return DomUtils.getOuterHTML(nodes, { encodeEntities: 'utf8' });
}

export function findElement(root: PageTree | PageElement, tag: string): PageElement | null {
  return DomUtils.findOne((el) => el.name === tag, root.children);
}

/**
 * What the page's relative URLs resolve against: `<base href>` (itself resolved against the
 * page URL), else the page URL; null when neither is a URL.
 */
export function pageBase(tree: PageTree, pageUrl: string): URL | null {
  let base: URL | null = null;
  try {
    base = new URL(pageUrl);
  } catch {
    base = null;
  }
  const href = DomUtils.findOne((el) => el.name === 'base' && el.attribs.href !== undefined, tree)
    ?.attribs.href;
  if (href !== undefined) {
    try {
      base = new URL(href.trim(), base ?? undefined);
    } catch {
      // an unusable <base> is ignored, as browsers do
    }
  }
  return base;
}
