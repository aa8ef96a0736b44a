/**
 * A body that is not HTML as Markdown (in the output worker): PDF and DOCX converted from
 * their bytes, text, JSON, XML and CSV from their decoded text; anything else has no
 * Markdown and fails with UNSUPPORTED_CONTENT naming its type.
 */
import { appError } from '../errors.js';
import { type ContentKind, mediaTypeOf } from './content-kind.js';
import { docxToMarkdown } from './docx-markdown.js';
import { type ConvertedDocument, pdfToMarkdown } from './pdf-markdown.js';
import { textToMarkdown } from './text-markdown.js';

export type { ContentKind } from './content-kind.js';
export { BINARY_KINDS, contentKindOf } from './content-kind.js';
export type { ConvertedDocument } from './pdf-markdown.js';

export interface DocumentLimits {
  /** PDF pages converted (PDF_MAX_PAGES, or fewer when the caller asks). */
  maxPages: number;
  /** DOCUMENT_MAX_BYTES: the largest PDF or DOCX converted. */
  maxBytes: number;
}

/** What the worker needs of a page that is not HTML. */
export interface DocumentSource {
  kind: Exclude<ContentKind, 'html'>;
  contentType: string | null;
  /** The bytes, for the binary kinds (pdf, docx, binary). */
  bytes?: Uint8Array;
  /** The decoded text, for the text kinds. */
  text: string;
  pageUrl: string;
  limits: DocumentLimits;
}

export async function documentToMarkdown(source: DocumentSource): Promise<ConvertedDocument> {
  const { kind, bytes, limits } = source;
  if (kind === 'binary') throw unsupported(source.contentType);
  if (kind !== 'pdf' && kind !== 'docx') {
    return { markdown: textToMarkdown(kind, source.text), metadata: {} };
  }
  const name = kind === 'pdf' ? 'PDF' : 'DOCX';
  if (!bytes) throw appError('DOCUMENT_UNREADABLE', name, 'its bytes were not kept');
  if (bytes.byteLength > limits.maxBytes) {
    throw appError('DOCUMENT_UNREADABLE', name, `it is larger than ${limits.maxBytes} bytes`);
  }
  return kind === 'pdf'
    ? pdfToMarkdown(bytes, limits.maxPages)
    : docxToMarkdown(bytes, source.pageUrl);
}

export function unsupported(contentType: string | null) {
  return appError('UNSUPPORTED_CONTENT', mediaTypeOf(contentType) || 'application/octet-stream');
}
