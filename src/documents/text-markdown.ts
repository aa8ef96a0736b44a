/**
 * Text that is not HTML as Markdown: plain text as it is, JSON and XML in a fenced block (JSON
 * pretty-printed when it parses), CSV as a table. Never parsed as HTML: a JSON API's `<b>` in
 * a string is not markup. Pure.
 */
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

/** RFC 4180 rows (quoted fields, doubled quotes, CRLF); null when the rows disagree. */
function csvTable(text: string): string | null {
  const delimiter = text.split('\n', 1)[0]?.includes('\t') ? '\t' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) rows.push([...row, field]);
  const columns = rows[0]?.length ?? 0;
  if (rows.length === 0 || columns < 1 || rows.some((r) => r.length !== columns)) return null;
  const cell = (c: string) =>
    c
      .replace(/\|/g, '\\|')
      .replace(/\s*\n\s*/g, '<br>')
      .trim();
  const line = (r: string[]) => `| ${r.map(cell).join(' | ')} |`;
  const [head, ...body] = rows as [string[], ...string[][]];
  return `${[line(head), `|${' --- |'.repeat(columns)}`, ...body.map(line)].join('\n')}\n`;
}
