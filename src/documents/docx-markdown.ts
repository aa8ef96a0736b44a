/**
 * A Word document (DOCX) as Markdown: mammoth maps its styles to HTML (headings, lists,
 * tables, links, bold), which our own converter turns into Markdown like any page.
 */
import mammoth from 'mammoth';
import { appError } from '../errors.js';
import { htmlToMarkdown } from '../markdown/index.js';
import type { ConvertedDocument } from './pdf-markdown.js';

export async function docxToMarkdown(
  bytes: Uint8Array,
  pageUrl: string,
): Promise<ConvertedDocument> {
  let html: string;
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    html = (await mammoth.convertToHtml({ buffer })).value;
  } catch {
    throw appError('DOCUMENT_UNREADABLE', 'DOCX', 'it is damaged or not a Word document');
  }
  const markdown = htmlToMarkdown(`<html><body>${html}</body></html>`, pageUrl, {
    mainContent: false,
  });
  return { markdown, metadata: {} };
}
