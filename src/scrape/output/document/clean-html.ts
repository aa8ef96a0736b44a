/**
 * The `html` format: the page without what is never content (the head, scripts, styles,
 * noscript, templates, `<link>`s, `<meta>`s, hidden elements; comments are not in the tree),
 * with the URLs of links, images and media made absolute against the page's base, so the
 * fragment stands on its own. Iframes are kept (with an absolute src), as Firecrawl keeps
 * them: an embedded video or map is part of what the page shows.
 */
import { DomUtils } from 'htmlparser2';
import type { PageElement, PageNode, PageTree } from './page-tree.js';

/** Firecrawl's marker for an inlined image left out. */
export const BASE64_IMAGE_REMOVED = '<Base64-Image-Removed>';

const NEVER_CONTENT = new Set([
  'head',
  'title',
  'script',
  'style',
  'noscript',
  'template',
  'link',
  'meta',
  'base',
]);

/** Attributes holding a URL, and the elements they do so on. */
const URL_ATTRIBUTES: ReadonlyArray<readonly [attr: string, tags: ReadonlySet<string>]> = [
  ['href', new Set(['a', 'area'])],
  ['src', new Set(['img', 'source', 'video', 'audio', 'track', 'iframe', 'embed', 'input'])],
  ['srcset', new Set(['img', 'source'])],
  ['poster', new Set(['video'])],
  ['data', new Set(['object'])],
  ['action', new Set(['form'])],
  ['cite', new Set(['blockquote', 'q', 'del', 'ins'])],
];

const HAS_SCHEME = /^[a-z][a-z\d+.-]*:/i;
const INLINE_IMAGE = /^\s*data:image\//i;

export function isHiddenElement(el: PageElement): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined) return true;
  if ((a['aria-hidden'] ?? '').trim().toLowerCase() === 'true') return true;
  if (el.name === 'input' && (a.type ?? '').toLowerCase() === 'hidden') return true;
  const style = a.style;
  return style !== undefined && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style);
}

/** A relative URL resolved against `base`; anything with a scheme (data:, mailto:...) as is. */
export function absoluteUrl(value: string, base: URL | null): string {
  const trimmed = value.trim();
  if (trimmed === '' || HAS_SCHEME.test(trimmed)) return value;
  try {
    return new URL(trimmed, base ?? undefined).href;
  } catch {
    return value;
  }
}

function absoluteSrcset(value: string, base: URL | null): string {
  // a data: URL may hold commas; such a list is left as written
  if (/data:/i.test(value)) return value;
  return value
    .split(',')
    .map((candidate) => {
      const [url = '', ...descriptors] = candidate.trim().split(/\s+/);
      return [absoluteUrl(url, base), ...descriptors].join(' ');
    })
    .join(', ');
}

export interface CleanOptions {
  /** Inlined (data:) images replaced by BASE64_IMAGE_REMOVED. */
  removeBase64Images: boolean;
}

/** Cleans the tree in place (see the file's comment). */
export function cleanPage(tree: PageTree, base: URL | null, options: CleanOptions): void {
  const doomed: PageNode[] = [];
  const walk = (nodes: PageNode[]): void => {
    for (const node of nodes) {
      if (node.type === 'comment' || node.type === 'cdata' || node.type === 'directive') {
        doomed.push(node);
        continue;
      }
      if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
      const el = node as PageElement;
      if (NEVER_CONTENT.has(el.name) || isHiddenElement(el)) {
        doomed.push(el);
        continue;
      }
      rewriteUrls(el, base, options);
      walk(el.children);
    }
  };
  walk(tree.children);
  for (const node of doomed) DomUtils.removeElement(node);
}

function rewriteUrls(el: PageElement, base: URL | null, options: CleanOptions): void {
  const a = el.attribs;
  for (const [attr, tags] of URL_ATTRIBUTES) {
    const value = a[attr];
    if (value === undefined || !tags.has(el.name)) continue;
    if (options.removeBase64Images && (el.name === 'img' || el.name === 'source')) {
      if (attr === 'src' && INLINE_IMAGE.test(value)) {
        a.src = BASE64_IMAGE_REMOVED;
        continue;
      }
      if (attr === 'srcset' && /data:image\//i.test(value)) {
        delete a.srcset;
        continue;
      }
    }
    a[attr] = attr === 'srcset' ? absoluteSrcset(value, base) : absoluteUrl(value, base);
  }
}
