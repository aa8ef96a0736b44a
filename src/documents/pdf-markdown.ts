/**
 * A PDF as Markdown, with pdfjs (its legacy build: Node 20 has no DOMMatrix). Text only: no
 * page is rendered, no font is installed, no script runs (isEvalSupported false), and pdfjs's
 * own worker runs in this thread (the output worker), so the output pool's time cap bounds it.
 */
import { appError } from '../errors.js';
import { linesToMarkdown, type PdfPageLines } from './pdf-blocks.js';
import { type PdfItem, pageLines } from './pdf-lines.js';

export interface ConvertedDocument {
  markdown: string;
  metadata: Record<string, string | number>;
}

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<Pdfjs> | null = null;

/**
 * Loads pdfjs once per thread; the output worker calls it at boot, so no page pays for it.
 * pdfjs warns on load that it cannot find a canvas; we never draw, so that is noise.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  pdfjs ??= (async () => {
    const warn = console.warn;
    const log = console.log;
    console.warn = () => {};
    console.log = () => {};
    try {
      // pdfjs's "fake worker" (its parser in this thread) is found here instead of being
      // imported by the first document, inside that page's time cap
      const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } finally {
      console.warn = warn;
      console.log = log;
    }
  })();
  return pdfjs;
}

export async function pdfToMarkdown(
  bytes: Uint8Array,
  maxPages: number,
): Promise<ConvertedDocument> {
  const lib = await loadPdfjs();
  const task = lib.getDocument({
    // pdfjs takes the buffer over: a copy, so the caller's bytes stay usable
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => {});
    const name = (error as { name?: string }).name;
    throw appError(
      'DOCUMENT_UNREADABLE',
      'PDF',
      name === 'PasswordException' ? 'it is encrypted' : 'it is damaged or not a PDF',
    );
  }
  try {
    const pages: PdfPageLines[] = [];
    const count = Math.min(doc.numPages, maxPages);
    for (let n = 1; n <= count; n++) pages.push(await readPage(doc, n));
    const info = ((await doc.getMetadata().catch(() => null))?.info ?? {}) as Record<
      string,
      unknown
    >;
    const metadata: Record<string, string | number> = { numPages: doc.numPages };
    if (typeof info.Title === 'string' && info.Title.trim()) metadata.title = info.Title.trim();
    if (typeof info.Author === 'string' && info.Author.trim()) metadata.author = info.Author.trim();
    return { markdown: linesToMarkdown(pages), metadata };
  } finally {
    await doc.destroy().catch(() => {});
  }
}

type PdfDoc = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;

interface TextItem {
  str: string;
  transform: number[];
  width: number;
  fontName: string;
}

interface LinkRect {
  url: string;
  rect: [number, number, number, number];
}

async function readPage(doc: PdfDoc, n: number): Promise<PdfPageLines> {
  const page = await doc.getPage(n);
  const [content, annotations] = await Promise.all([
    page.getTextContent(),
    page.getAnnotations({ intent: 'display' }).catch(() => []),
  ]);
  const links: LinkRect[] = [];
  for (const a of annotations as { subtype?: string; url?: string; rect?: number[] }[]) {
    if (a.subtype === 'Link' && a.url && /^(https?|mailto):/i.test(a.url) && a.rect) {
      links.push({ url: a.url, rect: a.rect as LinkRect['rect'] });
    }
  }
  const bold = new Set<string>();
  for (const [name, style] of Object.entries(content.styles)) {
    if (/bold|black|heavy/i.test((style as { fontFamily?: string }).fontFamily ?? ''))
      bold.add(name);
  }
  const items: PdfItem[] = [];
  for (const raw of content.items) {
    if (!('str' in raw)) continue;
    const item = raw as TextItem;
    const [a = 0, b = 0, , , x = 0, y = 0] = item.transform;
    const size = Math.hypot(a, b);
    const base: PdfItem = { str: item.str, x, y, width: item.width, size, font: item.fontName };
    items.push(...(links.length ? linked(base, links) : [base]));
  }
  const [, , , height = 792] = page.view;
  page.cleanup();
  return { lines: pageLines(items, bold), height };
}

/**
 * An item split where link rectangles cover part of it (pdfjs joins a line's runs into one
 * item, a link's words among them), by its characters' share of its width, at word bounds.
 */
function linked(item: PdfItem, links: LinkRect[]): PdfItem[] {
  const y = item.y + item.size / 3;
  const { str } = item;
  const perChar = str.length ? item.width / str.length : 0;
  const hits = links.filter((l) => {
    const [x1, y1, x2, y2] = l.rect;
    return (
      y >= Math.min(y1, y2) &&
      y <= Math.max(y1, y2) &&
      Math.max(x1, x2) > item.x &&
      Math.min(x1, x2) < item.x + item.width
    );
  });
  if (hits.length === 0 || perChar === 0) return [item];
  const out: PdfItem[] = [];
  let at = 0;
  const piece = (from: number, to: number, url?: string) => {
    if (to <= from) return;
    out.push({
      ...item,
      str: str.slice(from, to),
      x: item.x + from * perChar,
      width: (to - from) * perChar,
      ...(url && { url }),
    });
  };
  for (const link of hits.sort(
    (a, b) => Math.min(a.rect[0], a.rect[2]) - Math.min(b.rect[0], b.rect[2]),
  )) {
    const left = Math.min(link.rect[0], link.rect[2]);
    const right = Math.max(link.rect[0], link.rect[2]);
    let from = Math.max(at, Math.round((left - item.x) / perChar));
    let to = Math.min(str.length, Math.round((right - item.x) / perChar));
    // widen to whole words: a rectangle's edge rarely falls exactly between characters
    while (from > at && /\S/.test(str[from - 1] ?? '')) from--;
    while (to < str.length && /\S/.test(str[to] ?? '')) to++;
    while (from < to && str[from] === ' ') from++;
    if (to <= from) continue;
    piece(at, from);
    piece(from, to, link.url);
    at = to;
  }
  piece(at, str.length);
  return out;
}
