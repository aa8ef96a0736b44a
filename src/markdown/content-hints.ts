/**
 * Structural hints for where the main content sits: the containers content management
 * systems and templates name for their text (`itemprop="articleBody"`, `entry-content`,
 * `post-body`, `article-body`, `<article>`, `<main>`, `id="content"`...). These are the
 * conventions trafilatura's BODY_XPATH lists, in its order of trust: the first tier that
 * matches an element with enough text wins, the first such element in document order.
 *
 * A hint is a second opinion beside the Readability-style scorer (extract.ts), not a
 * replacement: index.ts decides between them.
 */
import type { ElementNode } from './dom.js';
import type { TreeStats } from './tree-stats.js';

const CONTAINERS = new Set(['article', 'div', 'main', 'section']);

interface Tier {
  /** Tags that may carry the hint. */
  tags: ReadonlySet<string>;
  test(el: ElementNode): boolean;
}

const has = (value: string | undefined, re: RegExp) => value !== undefined && re.test(value);

/** Tier 1: names that say "this is the article's text". */
const ARTICLE_BODY_CLASS =
  /post-?text|post_text|post-?body|post-?entry|postentry|post-?content|post_content|postcontent|post_inner_wrapper|article-?text|article-?content|article__content|article-?body|article__body|articlebody|articlecontent|page-content|text-content|body-text|article__container|art-content|entry-content/i;
const ARTICLE_BODY_ID =
  /entry-content|article-content|article__content|article-body|article__body|articlebody|articlecontent|body-text|art-content/i;

/** Tier 3: story and blog wrappers, a step less specific. */
const STORY_CLASS =
  /post-bodycopy|story-?content|theme-content|blog-content|section-content|single-content|single-post|main-column|wpb_text_column|story-body|field-body|fulltext/i;
const STORY_EXACT = /^(?:postarea|art-postcontent|text|cell|story)$/i;

/** Tier 4: the page's content area. */
const CONTENT_CLASS =
  /content-main|content_main|content-body|contentbody|content__body|main-content|page-content/i;

const TIERS: Tier[] = [
  {
    tags: CONTAINERS,
    test: (el) =>
      el.attrs.itemprop === 'articleBody' ||
      /^(?:post|entry)$/i.test(el.attrs.class ?? '') ||
      has(el.attrs.class, ARTICLE_BODY_CLASS) ||
      has(el.attrs.id, ARTICLE_BODY_ID),
  },
  { tags: new Set(['article']), test: () => true },
  {
    tags: CONTAINERS,
    test: (el) =>
      has(el.attrs.class, STORY_CLASS) ||
      has(el.attrs.class, STORY_EXACT) ||
      has(el.attrs.id, /^(?:primary|article|story)|story-body/i) ||
      has(el.attrs.class, /^article /i) ||
      el.attrs.role === 'article',
  },
  {
    tags: CONTAINERS,
    test: (el) =>
      has(el.attrs.class, CONTENT_CLASS) ||
      has(el.attrs.id, /content-main|content-body|contentbody|main-content/i) ||
      el.attrs.id === 'content' ||
      el.attrs.class === 'content',
  },
  {
    tags: new Set(['article', 'div', 'section', 'main']),
    test: (el) =>
      el.tag === 'main' ||
      has(el.attrs.class, /^main/i) ||
      has(el.attrs.id, /^main/i) ||
      el.attrs.role === 'main',
  },
];

/**
 * The first hinted container (by tier, then document order) with at least `minText`
 * characters of text, not mostly links; null when none.
 */
export function findHintedContainer(
  body: ElementNode,
  stats: TreeStats,
  minText: number,
): ElementNode | null {
  for (const tier of TIERS) {
    const found = firstMatch(body, tier, stats, minText);
    if (found) return found;
  }
  return null;
}

function firstMatch(
  el: ElementNode,
  tier: Tier,
  stats: TreeStats,
  minText: number,
): ElementNode | null {
  for (const child of el.children) {
    if (child.type !== 'element') continue;
    if (tier.tags.has(child.tag) && tier.test(child)) {
      const s = stats.of(child);
      if (s.length >= minText && stats.linkDensity(child) < 0.5) return child;
    }
    const deeper = firstMatch(child, tier, stats, minText);
    if (deeper) return deeper;
  }
  return null;
}
