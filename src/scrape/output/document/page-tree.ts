/**
 * A page as a domhandler tree (what css-select and htmlparser2's DomUtils work on), built from
 * the Markdown converter's linear tag stream rather than htmlparser2's Parser: the Parser's
 * open-element stack costs O(depth) per tag, so a fetched page of unclosed `<div>`s would
 * spend the whole output cap parsing. Comments, CDATA and the doctype are not kept: nothing
 * of the document output wants them.
 */
import { DomHandler, DomUtils, type parseDocument } from 'htmlparser2';
import { streamTags, type TagHandler } from '../../../markdown/index.js';

export type PageTree = ReturnType<typeof parseDocument>;
export type PageElement = ReturnType<typeof DomUtils.findAll>[number];
export type PageNode = PageElement['children'][number];

/**
 * Deeper start tags become children of the element at this depth (Chromium's parser does the
 * same at 512), so every recursive walk (selectors, serialisation) stays bounded.
 */
const MAX_DEPTH = 512;

/** `tap`, when given, is handed every event of the stream too (page-facts.ts reads it). */
export function parsePage(html: string, tap?: TagHandler): PageTree {
  const handler = new DomHandler();
  let depth = 0;
  // elements opened past MAX_DEPTH: their close tags are not the handler's to pop
  let flattened = 0;
  streamTags(html, {
    onopentag(name, attribs) {
      tap?.onopentag(name, attribs);
      handler.onopentag(name, attribs);
      if (depth >= MAX_DEPTH) {
        handler.onclosetag();
        flattened++;
      } else depth++;
    },
    ontext(data) {
      tap?.ontext(data);
      handler.ontext(data);
    },
    onclosetag(name) {
      tap?.onclosetag(name);
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
