/**
 * Excerpts of a "read more" text. A template that folds a long text (a category's SEO copy,
 * a store's story) sends the whole text in a block its class hides (`hidden`, `d-none`)
 * and, before it, the opening a reader sees until the toggle swaps them, often once per
 * breakpoint. The extraction keeps the hidden block (chrome removal keeps class-hidden
 * prose, as articles fold their rest that way) and the visible excerpt beside it, so the
 * content says its opening twice. The copies differ (the excerpt is cut short, re-typed
 * with a word changed), so repeated-blocks.ts, which compares texts exactly, keeps both.
 *
 * A visible sibling before such a block goes when it is shorter and nearly all of its words
 * are the block's: it adds nothing the block does not say. Words are compared as tokens of
 * letters and digits, so it holds in any language.
 */
import { type ElementNode, removeNodes } from './dom.js';
import { innerText } from './measure.js';
import { hiddenByClass } from './product-blocks.js';

/** A hidden block holding this much text (characters) is a folded text, not a label. */
const FOLDED_TEXT = 150;
/** This share of an excerpt's words or more found in the folded text makes it a copy. */
const COPY_SHARE = 0.8;
/** An excerpt holds at least this many words: shorter lines (a title) repeat on purpose. */
const MIN_WORDS = 8;

const WORD = /[\p{L}\p{N}]+/gu;

/** Removes, in place, the visible excerpts set before the class-hidden texts of `content`. */
export function dropHiddenTextExcerpts(content: ElementNode): void {
  const doomed: ElementNode[] = [];
  const walk = (el: ElementNode): void => {
    let before: ElementNode[] = [];
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (hiddenByClass(child.attrs.class) && before.length > 0) {
        const text = innerText(child);
        if (text.length >= FOLDED_TEXT) {
          const words = wordCounts(text);
          for (const sibling of before) {
            if (isExcerptOf(sibling, words, text.length)) doomed.push(sibling);
          }
        }
        before = [];
        continue;
      }
      before.push(child);
      walk(child);
    }
  };
  walk(content);
  removeNodes(doomed);
}

function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

function isExcerptOf(el: ElementNode, folded: ReadonlyMap<string, number>, length: number) {
  if (hiddenByClass(el.attrs.class)) return false;
  const text = innerText(el);
  if (text.length >= length) return false;
  const words = text.toLowerCase().match(WORD) ?? [];
  if (words.length < MIN_WORDS) return false;
  const left = new Map(folded);
  let found = 0;
  for (const word of words) {
    const n = left.get(word) ?? 0;
    if (n > 0) {
      found++;
      left.set(word, n - 1);
    }
  }
  return found >= COPY_SHARE * words.length;
}
