/**
 * Sentences a product page's text says twice in one run of text. Shops fill a field (a
 * book's editorial reviews, a description) from several suppliers' copies of the same text
 * and print them one after the other in a single element: the reader sees the same quotes
 * three times, and the content is several times the product's text. The second and later
 * copies of a sentence within one text node go; sentences are compared by their words
 * alone (case, spacing, quotes and dashes differ between the copies), so any language
 * written with sentence marks is served.
 */
import type { ElementNode } from './dom.js';

/**
 * A text node shorter than this (characters) is not split: repeating a short line (a size,
 * a label) is a template's choice, and only a long run of text holds several copies.
 */
const LONG_TEXT = 1000;
/** A sentence whose words hold fewer characters than this ("Yes.", "New!") may repeat. */
const MIN_SENTENCE = 20;
/** Elements visited at most: the walk is bounded on hostile pages. */
const MAX_ELEMENTS = 50_000;

/** A sentence's end: its mark (with closing quotes or brackets) and the space after it. */
const SENTENCE_END = /(?<=[.!?…。！？]["'“”‘’«»‹›)\]]*)\s+/u;
const WORD = /[\p{L}\p{N}]+/gu;

/** Removes, in place, the repeated sentences of each long text node under `root`. */
export function dropRepeatedSentences(root: ElementNode): void {
  let budget = MAX_ELEMENTS;
  const stack: ElementNode[] = [root];
  while (stack.length > 0 && budget-- > 0) {
    const el = stack.pop() as ElementNode;
    for (const child of el.children) {
      if (child.type === 'element') stack.push(child);
      else if (child.text.length >= LONG_TEXT) {
        const once = withoutRepeats(child.text);
        if (once !== null) child.text = once;
      }
    }
  }
}

/** The text with each sentence's later copies left out, or null when none repeats. */
function withoutRepeats(text: string): string | null {
  const sentences = text.split(SENTENCE_END);
  if (sentences.length < 3) return null;
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const sentence of sentences) {
    const key = (sentence.toLowerCase().match(WORD) ?? []).join(' ');
    if (key.length >= MIN_SENTENCE) {
      if (seen.has(key)) continue;
      seen.add(key);
    }
    kept.push(sentence);
  }
  if (kept.length === sentences.length) return null;
  // the node's own leading and trailing space stay (they separate it from its neighbours)
  const lead = /^\s*/.exec(text)?.[0] ?? '';
  const trail = /\s*$/.exec(text)?.[0] ?? '';
  return `${lead}${kept.join(' ').trim()}${trail}`;
}
