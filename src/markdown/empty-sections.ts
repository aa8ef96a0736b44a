/**
 * Headings over nothing: a section heading (h2–h6) with no text after it before a heading
 * of a higher rank, or before the content's end. What it headed was a script's widget (a
 * carousel of "Highlights" whose buttons went as controls), an ad slot, or a list other
 * rules removed; the heading alone tells the reader nothing. A heading followed by one of
 * its own rank or below is left alone: templates write card titles and body text as
 * headings in a row.
 */
import { type ElementNode, removeNodes } from './dom.js';

/** h1 ends every section and is never removed here (headline.ts handles it). */
const RANKS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
/** Not written out by the serializer: their text does not fill a section. */
const UNWRITTEN = new Set(['button', 'select', 'option', 'input', 'title']);

/** A heading, or TEXT for a run of text outside headings. */
type Event = { heading: ElementNode; rank: number } | typeof TEXT;
const TEXT = 0;

/** Removes the headings of the content's empty sections: one walk, one pass back. */
export function dropEmptySections(content: ElementNode): void {
  const events: Event[] = [];
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type === 'text') {
        if (/\S/.test(child.text) && events[events.length - 1] !== TEXT) events.push(TEXT);
        continue;
      }
      if (UNWRITTEN.has(child.tag)) continue;
      const rank = RANKS[child.tag];
      if (rank !== undefined) events.push({ heading: child, rank });
      else walk(child);
    }
  };
  walk(content);
  const doomed: ElementNode[] = [];
  // the rank of the next heading kept, 0 for text, 1 (an h1's) past the end
  let next = 1;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as Event;
    if (event === TEXT) next = 0;
    else if (event.rank > 1 && next !== 0 && next < event.rank) doomed.push(event.heading);
    else next = event.rank;
  }
  removeNodes(doomed);
}
