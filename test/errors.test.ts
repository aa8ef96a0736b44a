/**
 * The error catalogs (src/errors.ts for the service, src/api/http-errors.ts for HTTP) and the
 * contract agree. The texts are read from the documents themselves (shared/spec beside the
 * clone: the description and contract.md), not copied here, so a change of one character on
 * either side fails this test. PAGEGRAB_SPEC_DIR points it at another copy of the documents.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { httpError, httpErrorCodes } from '../src/api/http-errors.js';
import {
  type AppError,
  appError,
  appErrorWithHeaders,
  errorCodes,
  isAppError,
  statusOf,
} from '../src/errors.js';
import { parseScraperRequest } from '../src/scrape/params/index.js';

const specDir =
  process.env.PAGEGRAB_SPEC_DIR ?? join(import.meta.dirname, '..', '..', 'shared', 'spec');
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

function documentedErrors(): DocumentedError[] {
  return DOCUMENTS.flatMap((file) => {
    const lines = readFileSync(join(specDir, file), 'utf8').split('\n');
    return [...tableErrors(lines, file), ...proseErrors(lines, file)];
  });
}

/** An argument as the documents write it (`Unknown parameter: <name>`). */
const ph = (name: string) => name as never;

/** The catalog entry `run` throws (anything else fails the test). */
function thrown(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error('expected a catalog error');
}

const URL = 'http://example.com/';

/**
 * The entries the documents give a text for, rendered as the documents write them. Where
 * the documents give an example rather than a pattern, the example comes from the code
 * that produces it.
 */
const DOCUMENTED = [
  httpError('API_KEY_REQUIRED'),
  httpError('INVALID_API_KEY'),
  httpError('NOT_FOUND'),
  appError('WORKFLOW_NOT_FOUND'),
  appError('WORKFLOW_ARCHIVED'),
  appError('INTERNAL'),
  thrown(() => parseScraperRequest({ url: URL, render: 'maybe' })),
  appError('URL_REQUIRED'),
  thrown(() =>
    parseScraperRequest({
      url: URL,
      render: 'true',
      instructions: JSON.stringify([{ wait: 'main' }, { click: 'a' }, { fill: { text: 'x' } }]),
    }),
  ),
  appError('UNKNOWN_PARAMETER', ph('<name>')),
  appError('ONE_OUTPUT_TYPE'),
  appError('REQUIRES_RENDER', ph('<name>')),
  appError('INSTRUCTION_FAILED', ph('<i>'), ph('<kind>'), ph('<reason>')),
  appError('FETCH_FAILED', ph('<reason>')),
  appError('TIMED_OUT', ph('<ms>')),
  appError('TOO_MANY_CONCURRENT'),
  appError('URL_NOT_ALLOWED', ph('<host>')),
  appError('INSUFFICIENT_CREDITS'),
  appError('PROXY_UNAVAILABLE', ph('<type>'), ph('<CC>')),
  appError('PROXY_UNAVAILABLE', ph('<type>')),
  appError('NAME_REQUIRED'),
  appError('CONFIG_REQUIRED'),
  appError('UNKNOWN_CONFIG_FIELD', ph('<name>')),
  appError('ONLY_NAME_AND_CONFIG'),
];

/** Our additions: entries whose text the documents do not give (sample arguments). */
const ADDITIONS = [
  appError('BAD_REQUEST', 'Request body must be a JSON object'),
  appError('INVALID_NAME'),
  appError('NOTHING_TO_EDIT'),
  appError('ONLY_NAME_RENAME'),
  appError('CLIENT_CLOSED'),
  appError('JSON_TOO_DEEP', 64),
  // Schedules (issue 18): the documents announce scheduling but give no interface yet.
  appError('SCHEDULE_NOT_FOUND'),
  appError('CRON_REQUIRED'),
  appError('INVALID_CRON', 'expected 5 fields, got 6'),
  appError('INVALID_TIMEZONE', 'Mars/Olympus'),
  appError('SCHEDULE_TOO_FREQUENT', 60),
  appError('INVALID_ENABLED'),
  appError('ONLY_SCHEDULE_FIELDS'),
  appError('BROWSER_FAILED', 'Target crashed'),
  appError('TARGET_BLOCKED', 3, 'cloudflare-challenge'),
  // The contract gives its status (503) and Retry-After, not its text.
  appError('NODE_SATURATED'),
  appError('NOT_READY', 'the browser could not start'),
  appError('REQUEST_NOT_FOUND'),
  appError('RESULT_NOT_KEPT'),
  appError('KEY_NOT_FOUND'),
  appError('LAST_KEY'),
  appError('TOO_MANY_KEYS', 10),
  httpError('METHOD_NOT_ALLOWED', 'PUT'),
  httpError('MALFORMED_URL'),
  httpError('URL_TOO_LONG'),
  httpError('INVALID_CONTENT_TYPE'),
  // The contract gives its status (400), not its text.
  httpError('INVALID_JSON_BODY', 'Unexpected end of JSON input'),
  httpError('BODY_TOO_LARGE', 1024 * 1024),
  httpError('UNSUPPORTED_MEDIA_TYPE'),
  httpError('INVALID_REQUEST', 'querystring', 'limit', 'must be integer'),
  httpError('HEADERS_TOO_LARGE'),
  httpError('UNPARSABLE_REQUEST'),
  httpError('HOST_REQUIRED'),
];

const documented = documentedErrors();

describe('the error catalogs and the contract', () => {
  const byText = new Map<string, DocumentedError[]>();
  for (const error of documented)
    byText.set(error.text, [...(byText.get(error.text) ?? []), error]);

  for (const [text, places] of byText) {
    const at = places.map((p) => p.at).join(', ');
    it(`a catalog entry answers the documents' \`${text}\` with its status (${at})`, () => {
      const entry = DOCUMENTED.find((error) => error.message === text);
      assert.ok(entry, `no documented catalog entry renders \`${text}\` (${at})`);
      for (const place of places) assert.equal(entry.status, place.status, place.at);
    });
  }

  for (const entry of DOCUMENTED) {
    it(`${entry.code} renders a text the documents give, with their status`, () => {
      const places = byText.get(entry.message);
      assert.ok(places, `\`${entry.message}\` (${entry.code}) is in no document`);
      for (const place of places) assert.equal(entry.status, place.status, place.at);
    });
  }

  it('lists every entry of both catalogs once: documented or an addition', () => {
    const listed = [...DOCUMENTED, ...ADDITIONS].map((error) => error.code);
    const additions = new Set(ADDITIONS.map((error) => error.code));
    for (const code of [...errorCodes, ...httpErrorCodes]) {
      assert.ok(listed.includes(code), `${code} is neither documented nor listed as an addition`);
      assert.ok(
        !(additions.has(code) && DOCUMENTED.some((error) => error.code === code)),
        `${code} is listed both as documented and as an addition`,
      );
    }
  });

  it('documents none of the additions', () => {
    for (const error of ADDITIONS) {
      assert.ok(!byText.has(error.message), `${error.code}: \`${error.message}\` is documented`);
    }
  });
});

describe('the error catalog', () => {
  it('answers 503 with Retry-After when the node is saturated', () => {
    const error = appErrorWithHeaders('NODE_SATURATED', { 'Retry-After': '2' });
    assert.equal(error.status, 503);
    assert.equal(error.headers['Retry-After'], '2');
  });

  it('gives every code a client- or server-error status', () => {
    for (const code of errorCodes) {
      const status = statusOf(code);
      assert.ok(status >= 400 && status <= 599, `${code}: ${status}`);
    }
  });
});
