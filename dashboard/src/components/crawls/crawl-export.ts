import { strToU8, zipSync } from 'fflate';
import type { CrawlPage } from './crawls-api.js';

/** One Document a line, as the door answered each page. */
export function jsonLines(pages: CrawlPage[]): Blob {
  const text = pages.map((page) => `${JSON.stringify(page)}\n`).join('');
  return new Blob([text], { type: 'application/x-ndjson' });
}

/**
 * A zip of one Markdown file per page that has Markdown, named after its URL's host and path;
 * a name taken twice gets a number.
 */
export function markdownZip(pages: CrawlPage[]): Blob {
  const files: Record<string, Uint8Array> = {};
  for (const page of pages) {
    if (page.markdown === undefined) continue;
    const url = page.metadata?.sourceURL ?? page.metadata?.url ?? '';
    let name = fileNameOf(url);
    for (let n = 2; name in files; n++) name = fileNameOf(url, n);
    files[name] = strToU8(page.markdown);
  }
  const zipped = zipSync(files, { level: 6 });
  return new Blob([zipped.buffer as ArrayBuffer], { type: 'application/zip' });
}

export function fileNameOf(url: string, n?: number): string {
  let path = '';
  try {
    const u = new URL(url);
    path = `${u.host}${u.pathname}${u.search}`;
  } catch {
    path = url;
  }
  const base =
    path
      .replace(/\/+$/, '')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 120) || 'index';
  return `${base}${n ? `-${n}` : ''}.md`;
}

/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
