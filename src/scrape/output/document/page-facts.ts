/**
 * What the metadata and links formats read from a page, gathered from its tag stream
 * (markdown/tag-stream.ts) while another reader parses it: the Markdown converter's light
 * tree, or the document tree when includeTags/excludeTags or the html format need one. So
 * the page is tokenized once, and no tree is built just to read its head and anchors.
 *
 * "The head" is the first `<head>` element and what it contains, as a tree reader finds it;
 * a page without one has the whole page as its head.
 */
import type { TagHandler } from '../../../markdown/index.js';

const JSON_LD_TYPE = /^\s*application\/ld\+json\s*(;|$)/i;
/** One JSON-LD block's largest text: a product page's is a few KB, a catalog's a few 100 KB. */
export const MAX_JSON_LD_CHARS = 1024 * 1024;

export class PageFacts implements TagHandler {
  /** `<meta>` elements in document order, each with whether it was in the head. */
  readonly metas: { attribs: Record<string, string>; inHead: boolean }[] = [];
  /** `<link>` elements in document order, each with whether it was in the head. */
  readonly links: { attribs: Record<string, string>; inHead: boolean }[] = [];
  /** The href of every `<a href>`, in document order. */
  readonly anchors: string[] = [];
  /** The first `<html lang>`'s value, or null. */
  language: string | null = null;
  /** The first `<base>` with an href attribute: its value, or null. */
  baseHref: string | null = null;
  /** Whether the page has a `<head>` element. */
  hasHead = false;
  /** The text of each `<script type="application/ld+json">`, in document order. */
  readonly jsonLd: string[] = [];
  /** Whether any element has `itemscope`: only then is a tree built for its microdata. */
  hasMicrodata = false;
  private titleInHead: string | null = null;
  private titleAnywhere: string | null = null;

  private inHead = false;
  /** `<head>` elements open inside the first one (nested heads do not end it). */
  private nestedHeads = 0;
  /** Text of the `<title>` being read, null when none is open. */
  private title: string | null = null;
  private titleCounts = false;
  /** Text of the JSON-LD script being read, null when none is open. */
  private script: string | null = null;

  onopentag(name: string, attribs: Record<string, string>): void {
    if (!this.hasMicrodata && Object.hasOwn(attribs, 'itemscope')) this.hasMicrodata = true;
    switch (name) {
      case 'head':
        if (this.inHead) this.nestedHeads++;
        else if (!this.hasHead) {
          this.hasHead = true;
          this.inHead = true;
        }
        break;
      case 'meta':
        this.metas.push({ attribs, inHead: this.inHead });
        break;
      case 'link':
        this.links.push({ attribs, inHead: this.inHead });
        break;
      case 'a':
        if (attribs.href !== undefined) this.anchors.push(attribs.href);
        break;
      case 'html':
        if (this.language === null && attribs.lang !== undefined) this.language = attribs.lang;
        break;
      case 'base':
        if (this.baseHref === null && attribs.href !== undefined) this.baseHref = attribs.href;
        break;
      case 'title':
        // only the first title of the head, or of the page, is ever read
        this.titleCounts =
          this.title === null &&
          ((this.inHead && this.titleInHead === null) || this.titleAnywhere === null);
        if (this.titleCounts) this.title = '';
        break;
      case 'script':
        if (JSON_LD_TYPE.test(attribs.type ?? '')) this.script = '';
        break;
    }
  }

  ontext(data: string): void {
    if (this.title !== null) this.title += data;
    if (this.script !== null && this.script.length <= MAX_JSON_LD_CHARS) this.script += data;
  }

  onclosetag(name: string): void {
    if (name === 'script' && this.script !== null) {
      // a block past the bound is left out whole: cut, it could only be malformed
      if (this.script.length <= MAX_JSON_LD_CHARS) this.jsonLd.push(this.script);
      this.script = null;
    } else if (name === 'head' && this.inHead) {
      if (this.nestedHeads > 0) this.nestedHeads--;
      else this.inHead = false;
    } else if (name === 'title' && this.title !== null) {
      const text = this.title;
      this.title = null;
      if (!this.titleCounts) return;
      this.titleAnywhere ??= text;
      if (this.inHead) this.titleInHead ??= text;
    }
  }

  /** The text of the head's first `<title>` (the page's, when there is no head), or null. */
  titleText(): string | null {
    return this.hasHead ? this.titleInHead : this.titleAnywhere;
  }
}

/**
 * What the page's relative URLs resolve against: `<base href>` (itself resolved against the
 * page URL), else the page URL; null when neither is a URL.
 */
export function baseOf(facts: PageFacts, pageUrl: string): URL | null {
  let base: URL | null = null;
  try {
    base = new URL(pageUrl);
  } catch {
    base = null;
  }
  if (facts.baseHref !== null) {
    try {
      base = new URL(facts.baseHref.trim(), base ?? undefined);
    } catch {
      // an unusable <base> is ignored, as browsers do
    }
  }
  return base;
}
