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

/** pdfjs warns on load that it cannot find a canvas; we never draw, so that is noise. */
function loadPdfjs(): Promise<Pdfjs> {
  pdfjs ??= (async () => {
    const warn = console.warn;
    const log = console.log;
    console.warn = () => {};
    console.log = () => {};
    try {
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
    const url = links.find((l) => inside(l.rect, x + item.width / 2, y + size / 3))?.url;
    items.push({
      str: item.str,
      x,
      y,
      width: item.width,
      size,
      font: item.fontName,
      ...(url && { url }),
    });
  }
  const [, , , height = 792] = page.view;
  page.cleanup();
  return { lines: pageLines(items, bold), height };
}

function inside(rect: LinkRect['rect'], x: number, y: number): boolean {
  const [x1, y1, x2, y2] = rect;
  return (
    x >= Math.min(x1, x2) && x <= Math.max(x1, x2) && y >= Math.min(y1, y2) && y <= Math.max(y1, y2)
  );
}
