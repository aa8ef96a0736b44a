/**
 * What a fetched body is, from its Content-Type and, where that is missing or generic, its
 * first bytes: a page we parse as HTML, a document we convert (PDF, DOCX), text we quote
 * (plain, JSON, XML, CSV), or binary that has no Markdown. Pure.
 */
export type ContentKind = 'html' | 'pdf' | 'docx' | 'text' | 'json' | 'xml' | 'csv' | 'binary';

/** Kinds whose bytes are not text: never decoded and shown as text. */
export const BINARY_KINDS: ReadonlySet<ContentKind> = new Set(['pdf', 'docx', 'binary']);

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const GENERIC =
  /^(application\/(octet-stream|binary|download|force-download|x-download)|binary\/octet-stream)$/;

export function mediaTypeOf(contentType: string | null | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function contentKindOf(
  contentType: string | null | undefined,
  bytes?: Uint8Array,
): ContentKind {
  const type = mediaTypeOf(contentType);
  if (type === 'application/pdf' || type === 'application/x-pdf') return 'pdf';
  if (type === DOCX) return 'docx';
  if (type === '' || GENERIC.test(type)) return bytes ? sniff(bytes) : 'html';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'text/csv' || type === 'text/tab-separated-values') return 'csv';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) {
    return type === 'image/svg+xml' ? 'binary' : 'xml';
  }
  if (type.startsWith('text/')) return 'text';
  if (/^application\/(javascript|ecmascript|x-sh|toml|yaml|x-yaml)$/.test(type)) return 'text';
  return 'binary';
}

/** A body served without a useful type: PDF and ZIP (a DOCX) by their magic, else HTML. */
function sniff(bytes: Uint8Array): ContentKind {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024));
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) {
    return head.includes('word/') ? 'docx' : 'binary';
  }
  // NUL bytes never occur in text: an image, an archive, audio, video
  return head.includes(0) ? 'binary' : 'html';
}
