/**
 * The error catalogs (src/errors.ts for the service, src/api/http-errors.ts for HTTP) and the
 * reference the project publishes, docs/errors.md, agree: every entry has a row there with its
 * status, and every row's text is one its entry renders (placeholders such as `<name>` where
 * the entry takes a value, or an example the code really produces). The texts are read from
 * the document, not copied here, so a change of one character on either side fails this test.
 * (scripts/check-error-reference.ts checks the document against the service's contract.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type HttpErrorCode, httpError, httpErrorCodes } from '../src/api/http-errors.js';
import {
  type AppError,
  appError,
  appErrorWithHeaders,
  type ErrorCode,
  errorCodes,
  isAppError,
  statusOf,
} from '../src/errors.js';
import { parseScraperRequest } from '../src/scrape/params/index.js';
import { type ReferenceRow, readErrorReference } from './helpers/error-reference.js';

const REFERENCE = join(import.meta.dirname, '..', 'docs', 'errors.md');
const rows = readErrorReference(readFileSync(REFERENCE, 'utf8'));

type Code = ErrorCode | HttpErrorCode;
const isAppCode = (code: string): code is ErrorCode => (errorCodes as string[]).includes(code);
const isHttpCode = (code: string): code is HttpErrorCode =>
  (httpErrorCodes as string[]).includes(code);

/** Where argument i of a rendered text went. */
const ARG = /⟦(\d+)⟧/g;

/** The entry rendered with `count` arguments, argument i as ⟦i⟧. */
function render(code: Code, count: number): { status: number; message: string } {
  const args = Array.from({ length: count }, (_, i) => `⟦${i}⟧`) as never[];
  return isAppCode(code)
    ? appError(code, ...(args as [never]))
    : httpError(code as HttpErrorCode, ...(args as [never]));
}

/** A text the entry renders, its values written as `<placeholder>`s, whatever their number. */
function patternsOf(code: Code): RegExp[] {
  return [0, 1, 2, 3].map((count) => {
    const escaped = render(code, count).message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`^${escaped.replace(ARG, '<[^<>]+>')}$`);
  });
}

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

/** Texts the reference gives as examples of a free reason: the code must produce them. */
const EXAMPLES = [
  thrown(() => parseScraperRequest({ url: URL, render: 'maybe' })),
  thrown(() =>
    parseScraperRequest({
      url: URL,
      render: 'true',
      instructions: JSON.stringify([{ wait: 'main' }, { click: 'a' }, { fill: { text: 'x' } }]),
    }),
  ),
];

const rowText = (row: ReferenceRow) => `docs/errors.md:${row.line} (${row.code})`;

describe('the error catalogs and their reference, docs/errors.md', () => {
  it('reads a row for each text of the reference', () => {
    assert.ok(rows.length >= errorCodes.length + httpErrorCodes.length, `${rows.length} rows`);
  });

  for (const row of rows) {
    it(`${row.code}: \`${row.text}\` is a text of its entry, with its status`, () => {
      const code = row.code;
      assert.ok(isAppCode(code) || isHttpCode(code), `${rowText(row)}: no such catalog entry`);
      const status = isAppCode(code) ? statusOf(code) : httpError(code as HttpErrorCode).status;
      assert.equal(row.status, status, rowText(row));
      const example = EXAMPLES.find((error) => error.message === row.text);
      if (example) return assert.equal(example.code, code, rowText(row));
      assert.ok(
        patternsOf(code).some((pattern) => pattern.test(row.text)),
        `${rowText(row)}: \`${row.text}\` is not what ${code} renders (\`${render(code, 3).message.replace(ARG, '<arg$1>')}\`)`,
      );
    });
  }

  it('has a row for every entry of both catalogs', () => {
    const documented = new Set(rows.map((row) => row.code));
    const missing = [...errorCodes, ...httpErrorCodes]
      .filter((code) => !documented.has(code))
      .map((code) => {
        const { status, message } = render(code, 3);
        const text = message.replace(ARG, '<arg$1>');
        return `| \`${code}\` | ${status} | \`${text}\` | |`;
      });
    assert.deepEqual(missing, [], `add these rows to docs/errors.md:\n${missing.join('\n')}`);
  });

  it('gives each example as a row of its entry', () => {
    for (const example of EXAMPLES) {
      const row = rows.find((r) => r.text === example.message);
      assert.ok(row, `\`${example.message}\` (${example.code}) is not in docs/errors.md`);
      assert.equal(row.code, example.code);
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
