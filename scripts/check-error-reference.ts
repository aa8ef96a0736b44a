/**
 * One-off check of docs/errors.md (the project's reference of its error texts) against the
 * service's contract documents, which live outside the repository:
 *
 *   node --import tsx scripts/check-error-reference.ts <spec-dir>
 *
 * where <spec-dir> holds service-description.md and contract.md. Every error text the
 * documents give (with its status) must be a row of docs/errors.md marked `yes` in its
 * Contract column, and every row marked `yes` must be in the documents. npm test never runs
 * this: the repository stands alone, and test/errors.test.ts checks the catalogs against
 * docs/errors.md.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readErrorReference } from '../test/helpers/error-reference.js';

const DOCUMENTS = ['service-description.md', 'contract.md'];

interface DocumentedError {
  status: number;
  text: string;
  /** file:line of the paragraph, list item or table row. */
  at: string;
}

const SPAN = /`([^`]+)`/g;
const STATUS = /\b([45]\d\d)\b/g;

/**
 * Error texts in tables whose header has a Status column and an "error text" column
 * (the description's Errors table).
 */
function tableErrors(lines: string[], file: string): DocumentedError[] {
  const found: DocumentedError[] = [];
  let columns: { status: number; text: number } | null = null;
  lines.forEach((line, index) => {
    if (!line.startsWith('|')) {
      columns = null;
      return;
    }
    const cells = line.split('|').slice(1, -1);
    if (columns === null) {
      const status = cells.findIndex((cell) => /^\s*status\s*$/i.test(cell));
      const text = cells.findIndex((cell) => /error text/i.test(cell));
      columns = { status, text };
      return;
    }
    if (columns.status < 0 || columns.text < 0 || /^[\s|:-]+$/.test(line)) return;
    const status = Number(cells[columns.status]);
    for (const [, text] of (cells[columns.text] ?? '').matchAll(SPAN)) {
      found.push({ status, text: text as string, at: `${file}:${index + 1}` });
    }
  });
  return found;
}

/** Paragraphs and list items as single lines (wrapped lines joined); each table row alone. */
function blocks(lines: string[]): { text: string; line: number; row: boolean }[] {
  const out: { text: string; line: number; row: boolean }[] = [];
  lines.forEach((line, index) => {
    const starts = /^\s*$|^#|^\||^\s*(\d+\.|-)\s/.test(line);
    const last = out.at(-1);
    if (starts || !last || last.row || last.text === '') {
      out.push({ text: line.trim(), line: index + 1, row: line.startsWith('|') });
    } else {
      last.text += ` ${line.trim()}`;
    }
  });
  return out;
}

/** The `error` of a quoted `{"error": "..."}` body, or null. */
function errorOfJson(span: string): string | null {
  try {
    const body: unknown = JSON.parse(span);
    const error = (body as { error?: unknown } | null)?.error;
    return typeof error === 'string' ? error : null;
  } catch {
    return null;
  }
}

/**
 * Error texts in prose, as the documents write them: a status followed by a quoted text
 * (`400 \`URL is required!\``) or body (`502 \`{"error":"..."}\``); and an example or an
 * alternative of such a text (`400 naming the parameter, e.g. \`...\``, `... or \`...\``,
 * `status 400, error text \`...\``), which takes the last status before it in its sentence.
 */
function proseErrors(lines: string[], file: string): DocumentedError[] {
  const found: DocumentedError[] = [];
  for (const block of blocks(lines)) {
    const spans: string[] = [];
    // Quoted texts hold periods and bars of their own: set them aside while splitting.
    const masked = block.text.replace(SPAN, (_all, text: string) => `\0${spans.push(text) - 1}\0`);
    const clauses = masked.split(block.row ? /\|/ : /(?<!\be\.g|\bi\.e)[.;]\s+/);
    for (const clause of clauses) {
      for (const match of clause.matchAll(/\0(\d+)\0/g)) {
        const span = spans[Number(match[1])] as string;
        const before = clause.slice(0, match.index).replace(/\0\d+\0/g, '``');
        const last = [...before.matchAll(STATUS)].at(-1)?.[1];
        const right = /\b([45]\d\d)\s*$/.exec(before)?.[1];
        const json = errorOfJson(span);
        const add = (status: string | undefined, text: string) => {
          assert.ok(status, `${file}:${block.line}: no status for the error text \`${text}\``);
          found.push({ status: Number(status), text, at: `${file}:${block.line}` });
        };
        if (json !== null) add(right ?? last, json);
        else if (right) add(right, span);
        else if (last && /(\be\.g\.|\bor|error text)\s*$/.test(before)) add(last, span);
      }
    }
  }
  return found;
}

function documentedErrors(dir: string): DocumentedError[] {
  return DOCUMENTS.flatMap((file) => {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    return [...tableErrors(lines, file), ...proseErrors(lines, file)];
  });
}

const specDir = process.argv[2];
if (!specDir) {
  console.error('usage: node --import tsx scripts/check-error-reference.ts <spec-dir>');
  process.exit(2);
}
const documented = documentedErrors(specDir);
const reference = readErrorReference(
  readFileSync(join(import.meta.dirname, '..', 'docs', 'errors.md'), 'utf8'),
);
const problems: string[] = [];
for (const error of documented) {
  const rows = reference.filter((row) => row.text === error.text);
  if (rows.length === 0) problems.push(`${error.at}: \`${error.text}\` is not in docs/errors.md`);
  for (const row of rows) {
    if (row.status !== error.status)
      problems.push(`${error.at}: ${error.status}, docs/errors.md:${row.line}: ${row.status}`);
    if (!row.contract) problems.push(`docs/errors.md:${row.line}: the contract gives this text`);
  }
}
for (const row of reference.filter((r) => r.contract)) {
  if (!documented.some((error) => error.text === row.text))
    problems.push(`docs/errors.md:${row.line}: \`${row.text}\` is in no contract document`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(
  `docs/errors.md agrees with ${DOCUMENTS.join(' and ')}: ${documented.length} documented texts`,
);
