/**
 * Stopword density, jusText's test for prose: running text in any language is about a
 * third function words ("the", "und", "de", "что"), while labels, names, tags, credits and
 * menu entries have almost none. The lists are the `stopword` package's (pinned), merged
 * over the languages written with spaces between words; a page's language need not be
 * known, since a function word of one language is rarely a label in another.
 */
import {
  bul,
  cat,
  ces,
  dan,
  deu,
  ell,
  eng,
  est,
  fin,
  fra,
  hrv,
  hun,
  ind,
  ita,
  lav,
  lit,
  nld,
  nob,
  pol,
  por,
  ron,
  rus,
  slk,
  slv,
  spa,
  swe,
  tur,
  ukr,
} from 'stopword';

/** A constant table, like the name lists of the other passes. */
const STOPWORDS: ReadonlySet<string> = new Set(
  [
    eng,
    deu,
    fra,
    spa,
    ita,
    por,
    nld,
    dan,
    swe,
    nob,
    fin,
    pol,
    ces,
    slk,
    slv,
    hrv,
    hun,
    ron,
    rus,
    ukr,
    bul,
    ell,
    tur,
    cat,
    lit,
    lav,
    est,
    ind,
  ].flatMap((list) => list.map((w) => w.toLowerCase())),
);

const WORD = /[\p{L}\p{M}]+(?:['’]\p{L}+)?/gu;

/** Share of the text's words that are stopwords, and how many words it has. */
export function stopwordDensity(text: string): { density: number; words: number } {
  let words = 0;
  let stop = 0;
  for (const match of text.toLowerCase().matchAll(WORD)) {
    words++;
    if (STOPWORDS.has(match[0])) stop++;
  }
  return { density: words ? stop / words : 0, words };
}
