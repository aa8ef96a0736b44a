/**
 * A PDF page's text items (pdfjs getTextContent) as lines: items that share a baseline, in
 * the order the content stream draws them, which is the reading order every producer we
 * measured (TeX, LibreOffice, DocBook's FOP, Chrome's print) writes. Pure.
 */

/** What pdfjs hands back per run of text, reduced to what the layout needs. */
export interface PdfItem {
  str: string;
  /** Left edge and baseline, in PDF units (y grows upwards). */
  x: number;
  y: number;
  width: number;
  /** The font size the item is drawn at. */
  size: number;
  /** pdfjs's loaded font name, for weight: `g_d0_f3` style names carry none, real ones do. */
  font: string;
  /** The link annotation's target the item sits in, if any. */
  url?: string;
}

export interface PdfLine {
  text: string;
  x: number;
  /** The line's baseline. */
  y: number;
  /** Its largest font size. */
  size: number;
  bold: boolean;
  /** Horizontal runs separated by wide gaps (a table row has several). */
  cells: string[];
}

/** A gap wider than this many font sizes separates cells of a table row. */
const CELL_GAP = 1.5;

export function pageLines(items: PdfItem[], boldFonts: Set<string>): PdfLine[] {
  const lines: PdfItem[][] = [];
  let current: PdfItem[] = [];
  for (const item of items) {
    if (item.str === '' && current.length === 0) continue;
    const last = current.at(-1);
    const sameLine =
      last !== undefined &&
      Math.abs(item.y - last.y) < Math.max(item.size, last.size) * 0.5 &&
      item.x > last.x - last.size;
    if (last && !sameLine) {
      lines.push(current);
      current = [];
    }
    if (item.str !== '') current.push(item);
  }
  if (current.length) lines.push(current);
  return lines.map((items) => toLine(items, boldFonts)).filter((l) => l.text.trim() !== '');
}

function toLine(items: PdfItem[], boldFonts: Set<string>): PdfLine {
  let text = '';
  const cells: string[] = [''];
  let end = Number.NEGATIVE_INFINITY;
  let size = 0;
  let boldChars = 0;
  let chars = 0;
  let link = null as { url: string; start: number } | null;
  const closeLink = () => {
    if (!link) return;
    const label = text.slice(link.start).trim();
    const lead = text.slice(0, link.start);
    text = label ? `${lead}[${label}](${link.url})` : lead;
    link = null;
  };
  let space = false;
  for (const item of items) {
    // pdfjs fills a wide gap with a space item as wide as the gap: a gap, not text
    if (item.str.trim() === '') {
      space = true;
      continue;
    }
    const gap = item.x - end;
    if (text !== '' && gap > item.size * CELL_GAP) cells.push('');
    if (item.url !== link?.url) closeLink();
    const spaced = /\s$/.test(text) || /^\s/.test(item.str);
    if (text !== '' && !spaced && (space || gap > item.size * 0.15)) {
      text += ' ';
      cells[cells.length - 1] += ' ';
    }
    if (item.url && !link) link = { url: item.url, start: text.length };
    space = false;
    text += item.str;
    cells[cells.length - 1] += item.str;
    end = item.x + item.width;
    size = Math.max(size, item.size);
    const n = item.str.trim().length;
    chars += n;
    if (boldFonts.has(item.font)) boldChars += n;
  }
  closeLink();
  return {
    text: text.replace(/\s+/g, ' ').trim(),
    x: items[0]?.x ?? 0,
    y: items[0]?.y ?? 0,
    size: Math.round(size * 10) / 10,
    bold: chars > 0 && boldChars / chars > 0.8,
    cells: cells.map((c) => c.replace(/\s+/g, ' ').trim()).filter((c) => c !== ''),
  };
}
