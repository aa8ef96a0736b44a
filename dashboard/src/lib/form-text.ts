/** Values and the text of form inputs: inputs keep what was typed, conversion is here. */

/** A number when the text is one; otherwise the text itself, so the server's 400 names it. */
export function numberish(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

/** The text an input shows for a saved value; empty for none. */
export const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
