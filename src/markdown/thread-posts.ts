/**
 * The posts of a discussion around the one the extraction kept. Forum and Q&A software
 * builds every post of a thread (the opening post, each reply, each answer) from one
 * template: the post's text sits in a block of the same tag and classes each time
 * (`div.Message.userContent`, `div.s-prose.js-post-body`, `div.post-body`). The
 * Readability-style scorer keeps the post with the most prose; when the block holding the
 * kept text is built like two or more other blocks on the page, and the posts are dated
 * beside their text (a `<time>`, a short line with a date, by the author's name), those
 * are the thread's posts and their text blocks, in page order, are the content: not the
 * votes, badges and reply links between them.
 *
 * A story with comments under it is no thread: its body and its comments' bodies are
 * mostly built from different templates (`entry-content` beside `comment-content`), and
 * where they are not, the page says it is an article in schema.org (index.ts asks
 * isStoryPage). Told by markup and digits alone, so it holds in any language.
 */
import type { ElementNode } from './dom.js';
import { keptTextMarks, textFigures } from './measure.js';

/** This share of the kept text lies inside the post block. */
const INSIDE_SHARE = 0.8;
/** The kept text is at least this share of the post block's text (it is the post). */
const MOSTLY_KEPT = 0.5;
/** A thread has at least this many posts built alike (the kept one among them). */
const MIN_POSTS = 3;
/** The posts hold at least this share of the element that holds them all. */
const POSTS_SHARE = 0.4;
/** At least this share of the posts carry a date beside their text. */
const DATED_SHARE = 0.8;
/** Levels above the innermost block holding the kept text where the post block is looked for. */
const UP = 4;

interface Figures {
  text: number;
  kept: number;
}

/**
 * The posts of `body` (chrome removed; not copies) built like the one that holds the
 * extracted content `kept`, in page order, or null when the kept text is no post.
 */
export function postsAround(kept: ElementNode, body: ElementNode): ElementNode[] | null {
  const { marks, length: keptText } = keptTextMarks(kept);
  if (keptText === 0) return null;

  const figures = new Map<ElementNode, Figures>();
  const measure = (el: ElementNode): Figures => {
    const own: Figures = { text: 0, kept: 0 };
    for (const child of el.children) {
      if (child.type === 'text') {
        const f = textFigures(child);
        own.text += f.length;
        if (marks.has(f)) own.kept += f.length;
        continue;
      }
      const inner = measure(child);
      own.text += inner.text;
      own.kept += inner.kept;
    }
    figures.set(el, own);
    return own;
  };
  measure(body);

  // the path down to the smallest block that holds the kept text
  const path: ElementNode[] = [];
  for (let el: ElementNode | undefined = body; el; ) {
    let next: ElementNode | undefined;
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if ((figures.get(child)?.kept ?? 0) >= INSIDE_SHARE * keptText) next = child;
    }
    if (next) path.push(next);
    el = next;
  }
  for (let i = path.length - 1; i >= 0 && i >= path.length - UP; i--) {
    const block = path[i] as ElementNode;
    const f = figures.get(block) as Figures;
    if (f.kept < MOSTLY_KEPT * f.text) break;
    const shape = shapeOf(block);
    if (shape === null) continue;
    const posts = alike(body, block.tag, shape, figures);
    if (posts.length < MIN_POSTS) continue;
    const { holder, counts } = commonAncestor(body, posts);
    if (holder === body) continue;
    const dated = posts.filter((post) => datedPost(post, counts)).length;
    if (dated < DATED_SHARE * posts.length) continue;
    let postsText = 0;
    for (const post of posts) postsText += figures.get(post)?.text ?? 0;
    const holderText = figures.get(holder)?.text ?? 0;
    if (postsText >= POSTS_SHARE * holderText && holderText > f.text) return posts;
  }
  return null;
}

/** Tag and classes, digits left out (templates number their posts). Null without a class. */
function shapeOf(el: ElementNode): string | null {
  const cls = (el.attrs.class ?? '').replace(/\d+/g, '').trim().split(/\s+/).join(' ');
  return cls ? cls : null;
}

/** The outermost elements of `body` of that tag and shape that hold text. */
function alike(
  body: ElementNode,
  tag: string,
  shape: string,
  figures: ReadonlyMap<ElementNode, Figures>,
): ElementNode[] {
  const found: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (child.tag === tag && child.attrs.class && shapeOf(child) === shape) {
        if ((figures.get(child)?.text ?? 0) > 0) found.push(child);
        // a post quoting another holds a block built like a post: the outer one counts
        continue;
      }
      walk(child);
    }
  };
  walk(body);
  return found;
}

/** The deepest element of `body` holding all of `posts` (in one walk: counts per subtree). */
function commonAncestor(
  body: ElementNode,
  posts: readonly ElementNode[],
): { holder: ElementNode; counts: ReadonlyMap<ElementNode, number> } {
  const set = new Set(posts);
  const counts = new Map<ElementNode, number>();
  const count = (el: ElementNode): number => {
    let n = set.has(el) ? 1 : 0;
    if (n === 0) for (const child of el.children) if (child.type === 'element') n += count(child);
    counts.set(el, n);
    return n;
  };
  count(body);
  let holder = body;
  for (;;) {
    let next: ElementNode | null = null;
    for (const child of holder.children) {
      if (child.type === 'element' && counts.get(child) === posts.length) next = child;
    }
    if (!next || set.has(next)) return { holder, counts };
    holder = next;
  }
}

/** A date or a time of day as forum software prints a post's: a year, `8:45`, `3.5.24`. */
const DATE = /(?<!\d)(?:(?:19|20)\d\d|\d{1,2}:\d\d|\d{1,2}[./-]\d{1,2}[./-]\d{2,4})(?!\d)/;
/** A line of a post's header (author, date) is short; longer text is prose. */
const HEADER_LINE = 80;

/**
 * Whether the post's own part of the page (its ancestors up to the first that holds another
 * post) dates it outside its text: a `<time>`, a `datetime` attribute, or a short line with
 * a date, as a thread's posts carry by their author's name.
 */
function datedPost(post: ElementNode, counts: ReadonlyMap<ElementNode, number>): boolean {
  let wrapper = post;
  while (wrapper.parent && counts.get(wrapper.parent) === 1) wrapper = wrapper.parent;
  const walk = (el: ElementNode): boolean => {
    if (el === post) return false;
    if (el.tag === 'time' || el.attrs.datetime !== undefined) return true;
    for (const child of el.children) {
      if (child.type === 'element') {
        if (walk(child)) return true;
      } else if (child.text.length <= HEADER_LINE * 2 && DATE.test(child.text)) {
        if (child.text.trim().length <= HEADER_LINE) return true;
      }
    }
    return false;
  };
  return walk(wrapper);
}
