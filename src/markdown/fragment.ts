/**
 * Text helpers for rendered Markdown fragments, shared by the writer (serialize.ts) and the
 * table renderer (table.ts); kept apart so that neither imports the other.
 */

/** A code span on one line, fenced by one more backtick than the longest run inside. */
export function inlineCode(text: string): string {
  const t = text.replace(/\s+/g, ' ');
  if (!t.trim()) return t;
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((m) => m.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${t}${pad}${ticks}`;
}

/** Whitespace clean-up of a rendered fragment: trims lines, at most one blank line. */
export function finish(text: string): string {
  return text
    .replace(/[ \t]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
