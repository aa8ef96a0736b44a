/**
 * Thread pages: forums, guest books and Q&A pages build every post with the markup blog
 * templates use for comments (`class="comment"`, `CommentText`, `id="comment-123"`), and
 * there the posts are the page's content, the first one above all. Readability's scorer
 * strips and weighs down comment names, which leaves such a page to its sidebars.
 *
 * A page is a thread when comment-named containers hold most of its text AND the first
 * paragraph of prose on the page is inside one of them: on an article with comments under
 * it, however many, the article's own text comes first, outside them.
 */
import { type ElementNode, hasItemType } from './dom.js';
import { isSpace, textLength } from './measure.js';

/** schema.org's thread types as a JSON-LD `@type`, alone or in a list. */
const DISCUSSION_TYPE =
  /"@type"\s*:\s*(?:\[[^\]]*?)?"(?:https?:\/\/schema\.org\/)?(?:DiscussionForumPosting|QAPage)"/;
const DISCUSSION_ITEMTYPE = /schema\.org\/(?:DiscussionForumPosting|QAPage)$/i;

const COMMENT = /comment/i;
const ASIDE = new Set(['aside', 'header', 'footer']);
/** Share of the page's text that comment-named containers hold on a thread page. */
const THREAD_SHARE = 0.5;
/** Characters (not counting spaces) an element holds itself, not in children, to count as prose: a sentence; lower is more careful, since text outside comments says "article". */
const PROSE = 50;

export function isThreadPage(body: ElementNode): boolean {
  let inComments = 0;
  let firstProseInComment: boolean | null = null;
  // the first prose is looked for in the page's flow: link text (a teaser's title) is navigation
  const walk = (el: ElementNode, inComment: boolean, aside: boolean): void => {
    if (firstProseInComment === null && !aside && ownTextLength(el) >= PROSE) {
      firstProseInComment = inComment;
    }
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      const named = COMMENT.test(child.attrs.class ?? '') || COMMENT.test(child.attrs.id ?? '');
      if (named && !inComment) inComments += textLength(child);
      // asides, headers and footers (teasers, banners) are not the page's flow of text
      const outside = aside || child.tag === 'a' || ASIDE.has(child.tag);
      walk(child, inComment || named, outside);
    }
  };
  walk(body, false, false);
  // the page's length is measured last: most pages fail the cheaper tests
  if (firstProseInComment !== true || inComments === 0) return false;
  return inComments >= THREAD_SHARE * textLength(body);
}

/** Visible characters of the element's own text children. */
function ownTextLength(el: ElementNode): number {
  let length = 0;
  for (const child of el.children) {
    if (child.type !== 'text') continue;
    const text = child.text;
    for (let i = 0; i < text.length; i++) if (!isSpace(text.charCodeAt(i))) length++;
  }
  return length;
}

/**
 * A page that says it is a discussion in its markup: schema.org DiscussionForumPosting or
 * QAPage (JSON-LD or microdata), as forum and Q&A software writes for search engines.
 * Replies there quote earlier posts and repeat their authors' signatures (index.ts drops
 * the repeats).
 */
export function isDiscussionPage(root: ElementNode, jsonLd: readonly string[]): boolean {
  return (
    jsonLd.some((data) => DISCUSSION_TYPE.test(data)) || hasItemType(root, DISCUSSION_ITEMTYPE)
  );
}

/** schema.org's story types (Article and its kinds, BlogPosting) as a JSON-LD `@type`. */
const STORY_TYPE =
  /"@type"\s*:\s*(?:\[[^\]]*?)?"(?:https?:\/\/schema\.org\/)?(?:\w*Article|BlogPosting|Report)"/;
const STORY_ITEMTYPE = /schema\.org\/(?:\w*Article|BlogPosting|Report)$/i;

/**
 * A page that says it is a story (schema.org Article, NewsArticle, BlogPosting...) and not a
 * discussion: comments under it are built like its text on some templates, and are not it.
 */
export function isStoryPage(root: ElementNode, jsonLd: readonly string[]): boolean {
  if (isDiscussionPage(root, jsonLd)) return false;
  return jsonLd.some((data) => STORY_TYPE.test(data)) || hasItemType(root, STORY_ITEMTYPE);
}
