/**
 * Text that is not HTML as Markdown: plain text as it is, JSON and XML in a fenced block (JSON
 * pretty-printed when it parses), CSV as a table. Never parsed as HTML: a JSON API's `<b>` in
 * a string is not markup. Pure.
 */
import { parse } from 'csv-parse/sync';
import type { ContentKind } from './content-kind.js';

export function textToMarkdown(kind: ContentKind, text: string): string {
  if (kind === 'json') return fenced('json', prettyJson(text));
  if (kind === 'xml') return fenced('xml', text.trim());
  if (kind === 'csv') return csvTable(text) ?? fenced('csv', text.trim());
  return text;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text.trim();
  }
}

/** A fence longer than any run of backticks inside, so the block cannot be closed early. */
function fenced(lang: string, body: string): string {
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${body}\n${fence}\n`;
}

/** CSV (RFC 4180, by csv-parse) as a table; null when it does not parse or the rows disagree. */
function csvTable(text: string): string | null {
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter: text.split('\n', 1)[0]?.includes('\t') ? '\t' : ',',
      record_delimiter: ['\r\n', '\n', '\r'],
      bom: true,
      skip_empty_lines: true,
    });
  } catch {
    return null;
  }
  const columns = rows[0]?.length ?? 0;
  if (columns < 1) return null;
  const cell = (c: string) =>
    c
      .replace(/\|/g, '\\|')
      .replace(/\s*\n\s*/g, '<br>')
      .trim();
  const line = (r: string[]) => `| ${r.map(cell).join(' | ')} |`;
  const [head, ...body] = rows as [string[], ...string[][]];
  return `${[line(head), `|${' --- |'.repeat(columns)}`, ...body.map(line)].join('\n')}\n`;
}
