/**
 * Light tree → Markdown (CommonMark + GFM tables). Written by hand rather than turndown so
 * that it runs on the light tree without a DOM and in linear time.
 *
 * Whitespace: text is collapsed as a browser would; blocks are separated by blank lines.
 * Indentation (lists) and code blocks are emitted as private-use markers and placeholders
 * so that the final whitespace clean-up cannot disturb them.
 */
import type { ElementNode, Node } from './dom.js';
import { finish, inlineCode } from './fragment.js';
import { renderTable } from './table.js';

const INDENT = '\uE000'; // one space of indentation that must survive clean-up
const HARD_BREAK = '\uE001'; // two trailing spaces (Markdown hard line break)
const PLACEHOLDER = /\uE002(\d+)\uE003/g;

const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'body',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'html',
  'main',
  'nav',
  'p',
  'section',
  'summary',
  'caption',
]);
const SKIPPED = new Set([
  'head',
  'title',
  'button',
  'input',
  'select',
  'option',
  'source',
  'track',
  // what a video or an audio player holds is the fallback of a browser that plays neither
  // ("your browser does not support the video tag"), not the page's text
  'video',
  'audio',
]);

/** Inline emphasis elements by the Markdown delimiter they are written with. */
const EMPHASIS: Record<string, string> = {
  strong: '**',
  b: '**',
  em: '_',
  i: '_',
  cite: '_',
  dfn: '_',
  del: '~~',
  s: '~~',
  strike: '~~',
};

/**
 * Elements whose rendering reworks the text of everything inside them (clean-up, quote
 * markers, list indentation, emphasis or link trimming): written nested, each level reads
 * its whole subtree again, so a hostile page of hundreds of nested quotes around a long text
 * costs depth × size, and its markers grow the output as depth² (the parser allows 512
 * levels).
 */
const REWORKED = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'ul',
  'ol',
  'a',
  'q',
  'table',
  ...Object.keys(EMPHASIS),
]);
/** Of those, the ones written inline: beyond MAX_NESTING, their text without a break. */
const INLINE_REWORKED = new Set(['a', 'q', ...Object.keys(EMPHASIS)]);
/**
 * Reworked elements inside one another beyond this are written as their bare content (a
 * block's text as a paragraph, an inline element's as text): no real page nests quotes,
 * lists, links and emphasis this deep, and the bound keeps a hostile one linear.
 */
const MAX_NESTING = 16;

export type UrlResolver = (url: string) => string | null;

export class MarkdownWriter {
  private readonly stash: string[] = [];
  /** Reworked elements (REWORKED) open around the node being written. */
  private nesting = 0;

  constructor(private readonly resolve: UrlResolver) {}

  render(root: ElementNode): string {
    // matched from a run's first blank only: retried at each blank, a long run costs its square
    return finish(this.children(root, false).replace(/(?<![ \t])[ \t]+\uE001/g, '\uE001'))
      .replace(/\uE001\n(?:[>\uE000 ]*\uE001\n)+/g, '\n\n') // <br><br> separates paragraphs
      .replace(/^([>\uE000 ]*)\uE001\n/gm, '$1') // a break that opens a line breaks nothing
      .replace(/\uE001(?=\n\n|\n?$)/g, '')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/\uE001/g, '  ')
      .replace(/\uE000/g, ' ')
      .replace(PLACEHOLDER, (_m, i: string) => this.stash[Number(i)] ?? '');
  }

  /** Renders children; `pre` is true inside <pre> (whitespace kept verbatim). */
  children(el: ElementNode, pre: boolean): string {
    let out = '';
    const kids = el.children;
    for (let i = 0; i < kids.length; i++) {
      const child = kids[i] as Node;
      if (!pre && child.type === 'element' && EMPHASIS[child.tag]) {
        const run = this.emphasisRun(kids, i);
        if (run.end > i) {
          out += this.node(run.merged, false);
          i = run.end;
          continue;
        }
      }
      out += this.node(child, pre);
    }
    return out;
  }

  /**
   * Editors split a bold or italic phrase into touching elements of the same kind
   * (`<strong>Chirac le</strong><strong></strong><strong>surnommait</strong>`): written one
   * by one they give `**a****b**`, which Markdown reads as other emphasis than the page's.
   * Such a run (nothing but empty elements between) is written as one element holding all
   * their children, so nested runs inside them merge too.
   */
  private emphasisRun(kids: Node[], start: number): { end: number; merged: ElementNode } {
    const first = kids[start] as ElementNode;
    const marker = EMPHASIS[first.tag];
    const children: Node[] = [...first.children];
    let end = start;
    for (let k = start + 1; k < kids.length; k++) {
      const next = kids[k] as Node;
      // text between, even a space, separates the runs: `_a_ _b_` reads right
      if (next.type === 'text') break;
      if (EMPHASIS[next.tag] === marker) {
        children.push(...next.children);
        end = k;
      } else if (!isEmptyInline(next)) break;
    }
    return { end, merged: { ...first, children } };
  }

  private node(node: Node, pre: boolean): string {
    if (node.type === 'text') {
      return pre ? node.text : escapeText(node.text.replace(/[\s\u00a0]+/g, ' '));
    }
    const tag = node.tag;
    if (SKIPPED.has(tag)) return '';
    // inside <pre> markup is highlighting: only the characters and line breaks count
    if (pre) return tag === 'br' ? '\n' : this.children(node, true);
    if (!REWORKED.has(tag)) return this.element(node, tag);
    if (this.nesting >= MAX_NESTING) {
      const inner = this.children(node, false);
      return INLINE_REWORKED.has(tag) ? inner : `\n\n${inner}\n\n`;
    }
    this.nesting++;
    try {
      return this.element(node, tag);
    } finally {
      this.nesting--;
    }
  }

  /** An element outside <pre>. */
  private element(node: ElementNode, tag: string): string {
    switch (tag) {
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6': {
        const text = oneLine(this.children(node, false));
        return text ? `\n\n${'#'.repeat(Number(tag[1]))} ${text}\n\n` : '';
      }
      case 'br':
        return `${HARD_BREAK}\n`;
      case 'hr':
        return '\n\n---\n\n';
      case 'pre':
        return this.codeBlock(node);
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt':
        return inlineCode(plainText(node));
      case 'strong':
      case 'b':
        return wrap(this.children(node, false), '**');
      case 'em':
      case 'i':
      case 'cite':
      case 'dfn':
        return wrap(this.children(node, false), '_');
      case 'del':
      case 's':
      case 'strike':
        return wrap(this.children(node, false), '~~');
      case 'a':
        return this.link(node);
      case 'img':
        return this.image(node);
      case 'ul':
      case 'ol':
        return this.list(node);
      case 'li':
        return `\n\n${this.children(node, false)}\n\n`;
      case 'blockquote':
        return this.quote(node);
      case 'table':
        return renderTable(node, this);
      case 'q':
        return `"${this.children(node, false)}"`;
      case 'math':
        return this.math(node);
    }
    const inner = this.children(node, false);
    return BLOCKS.has(tag) ? `\n\n${inner}\n\n` : inner;
  }

  /** Stores finished text that later clean-up must not touch; returns its placeholder. */
  protect(text: string): string {
    this.stash.push(text);
    return `\uE002${this.stash.length - 1}\uE003`;
  }

  /** Replaces placeholders with what they stand for (for text that must be one line). */
  expand(text: string): string {
    return text.replace(PLACEHOLDER, (_m, i: string) => this.stash[Number(i)] ?? '');
  }

  private codeBlock(node: ElementNode): string {
    // trimEnd, not /\s+$/: the regex retries at every blank of a long run inside the code
    const code = this.children(node, true).replace(/^\n/, '').trimEnd();
    if (!code) return '';
    const language = languageOf(node);
    const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((m) => m.length));
    const fence = '`'.repeat(Math.max(3, longest + 1));
    return `\n\n${this.protect(`${fence}${language}\n${code}\n${fence}`)}\n\n`;
  }

  private link(node: ElementNode): string {
    const inner = this.children(node, false);
    const text = inner.trim();
    const href = node.attrs.href?.trim();
    if (!href || !text || href.startsWith('#') || /^javascript:/i.test(href)) return inner;
    const url = this.resolve(href);
    if (!url) return inner;
    if (text.includes('\n\n')) return inner; // block content inside a link: keep the text
    const title = node.attrs.title ? ` "${node.attrs.title.replace(/"/g, '\\"')}"` : '';
    const lead = /^\s/.test(inner) ? ' ' : '';
    const trail = /\s$/.test(inner) ? ' ' : '';
    return `${lead}[${text}](${destination(url)}${title})${trail}`;
  }

  private image(node: ElementNode): string {
    const src = imageSource(node);
    if (!src) return '';
    const url = this.resolve(src);
    if (!url) return '';
    const alt = escapeText((node.attrs.alt ?? '').replace(/\s+/g, ' ').trim());
    return `![${alt}](${destination(url)})`;
  }

  private list(node: ElementNode): string {
    const ordered = node.tag === 'ol';
    let n = Number(node.attrs.start) || 1;
    const items: string[] = [];
    for (const child of node.children) {
      if (child.type === 'text') {
        if (child.text.trim()) items.push(`- ${escapeText(child.text.trim())}`);
        continue;
      }
      const rendered = child.tag === 'li' ? this.children(child, false) : this.node(child, false);
      // a nested list right under the item's text stays tight (no blank line)
      const body = finish(rendered).replace(/\n\n(?=\uE000*(?:-|\d+\.) )/g, '\n');
      if (!body) continue;
      const marker = ordered ? `${n++}. ` : '- ';
      const pad = INDENT.repeat(marker.length);
      items.push(marker + body.replace(/\n(?=.)/g, `\n${pad}`));
    }
    return items.length ? `\n\n${items.join('\n')}\n\n` : '';
  }

  /**
   * MathML has no Markdown form; its tokens are kept as spaced text (what a reader's
   * copy-paste gives), display math as its own paragraph. TeX annotations are skipped.
   */
  private math(node: ElementNode): string {
    const tokens: string[] = [];
    const walk = (el: ElementNode): void => {
      for (const child of el.children) {
        if (child.type === 'text') {
          const t = child.text.trim();
          if (t) tokens.push(escapeText(t));
        } else if (child.tag !== 'annotation' && child.tag !== 'annotation-xml') walk(child);
      }
    };
    walk(node);
    const text = tokens.join(' ');
    return node.attrs.display === 'block' ? `\n\n${text}\n\n` : ` ${text} `;
  }

  private quote(node: ElementNode): string {
    const body = finish(this.children(node, false));
    if (!body) return '';
    return `\n\n${body.replace(/^/gm, '> ').replace(/^> $/gm, '>')}\n\n`;
  }
}

function languageOf(pre: ElementNode): string {
  const code = pre.children.find((c): c is ElementNode => c.type === 'element' && c.tag === 'code');
  const classes = `${pre.attrs.class ?? ''} ${code?.attrs.class ?? ''}`;
  const m = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes);
  return m?.[1] ?? pre.attrs['data-lang'] ?? '';
}

function imageSource(img: ElementNode): string {
  const a = img.attrs;
  // lazy loaders keep the real URL in data-* and a placeholder in src
  const candidates = [a['data-src'], a['data-lazy-src'], a['data-original'], a.src];
  for (const c of candidates) {
    if (c && !c.startsWith('data:')) return c.trim();
  }
  const srcset = a.srcset ?? a['data-srcset'];
  if (srcset) return srcset.trim().split(/\s+/)[0] ?? '';
  return '';
}

function plainText(node: Node): string {
  if (node.type === 'text') return node.text;
  if (node.tag === 'br') return '\n';
  let s = '';
  for (const child of node.children) s += plainText(child);
  return s;
}

/** Emphasis markers must hug the text, so surrounding spaces move outside them. */
const MEDIA = new Set(['img', 'picture', 'video', 'audio', 'svg', 'math', 'br', 'hr', 'iframe']);

/**
 * An element that writes nothing (`<strong></strong>`, an empty `<span>`): no text, no
 * picture, no break. Looks at a few nodes only: anything bigger is not an empty joint.
 */
function isEmptyInline(el: ElementNode): boolean {
  let budget = 16;
  const empty = (node: Node): boolean => {
    if (--budget < 0) return false;
    if (node.type === 'text') return node.text === '';
    if (MEDIA.has(node.tag) || BLOCKS.has(node.tag)) return false;
    return node.children.every(empty);
  };
  return empty(el);
}

function wrap(inner: string, marker: string): string {
  if (!inner.trim()) return inner;
  if (inner.includes('\n\n')) return inner;
  // trimStart and trimEnd strip what \s matches; /\s*$/ would retry at every space of a run
  const trimmed = inner.trim();
  const lead = inner.slice(0, inner.length - inner.trimStart().length);
  const trail = inner.slice(inner.trimEnd().length);
  return `${lead}${marker}${trimmed}${marker}${trail}`;
}

function destination(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
}

export function escapeText(text: string): string {
  return text
    .replace(/[\\*_`[\]<]/g, '\\$&')
    .replace(/^(\s*)([#>+-]|\d+\.)(?=\s)/, '$1\\$2')
    .replace(/\|/g, '\\|');
}

export function oneLine(text: string): string {
  return finish(text.replace(/\n+/g, ' ')).replace(/\n/g, ' ');
}
