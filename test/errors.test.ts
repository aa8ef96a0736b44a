/**
 * The error catalog and the contract agree: every text the contract quotes (shared/spec
 * contract.md, in backticks) is listed here verbatim with its status, and the catalog must
 * render exactly that. A change of wording on either side fails this test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  appError,
  appErrorWithHeaders,
  type ErrorCode,
  errorCodes,
  statusOf,
} from '../src/errors.js';

type Case = [code: ErrorCode, args: unknown[], status: number, text: string];

/** Copied from the contract, sections 1, 2 and 4. */
const CONTRACT: Case[] = [
  ['API_KEY_REQUIRED', [], 403, 'API Key is required!'],
  ['INVALID_API_KEY', [], 403, 'Invalid API key!'],
  ['NOT_FOUND', [], 404, 'Not found!'],
  ['WORKFLOW_NOT_FOUND', [], 404, 'Workflow not found!'],
  ['WORKFLOW_ARCHIVED', [], 400, 'Workflow is archived!'],
  ['INTERNAL', [], 500, 'Internal server error'],
  [
    'INVALID_PARAMETER',
    ['Invalid value for render: expected true or false'],
    400,
    'Invalid value for render: expected true or false',
  ],
  ['URL_REQUIRED', [], 400, 'URL is required!'],
  [
    'INVALID_INSTRUCTION',
    [2, 'fill.selector is required'],
    400,
    'Invalid instruction at index 2: fill.selector is required',
  ],
  ['UNKNOWN_PARAMETER', ['foo'], 400, 'Unknown parameter: foo'],
  ['ONE_OUTPUT_TYPE', [], 400, 'Only one output type can be requested per request.'],
  ['REQUIRES_RENDER', ['screenshot'], 400, 'screenshot requires render=true'],
  [
    'INSTRUCTION_FAILED',
    [1, 'click', 'no such element'],
    422,
    'Instruction 1 (click) failed: no such element',
  ],
  ['FETCH_FAILED', ['connection refused'], 502, 'Failed to fetch the page: connection refused'],
  ['TIMED_OUT', [1000], 504, 'Timed out after 1000 ms'],
  ['TOO_MANY_CONCURRENT', [], 429, 'Too many concurrent requests'],
  [
    'URL_NOT_ALLOWED',
    ['127.0.0.1'],
    400,
    'URL is not allowed: 127.0.0.1 resolves to a non-public address',
  ],
  ['INSUFFICIENT_CREDITS', [], 402, 'Insufficient credits to make the request.'],
  [
    'PROXY_UNAVAILABLE',
    ['residential', 'de'],
    400,
    'Proxy unavailable: no residential proxy for country DE',
  ],
  ['PROXY_UNAVAILABLE', ['mobile'], 400, 'Proxy unavailable: no mobile proxy'],
  ['NAME_REQUIRED', [], 400, 'Name is required!'],
  ['CONFIG_REQUIRED', [], 400, 'Config is required!'],
  ['UNKNOWN_CONFIG_FIELD', ['foo'], 400, 'Unknown config field: foo'],
  ['ONLY_NAME_AND_CONFIG', [], 400, 'Only name and config can be edited'],
];

function render(code: ErrorCode, args: unknown[]) {
  return (appError as (c: ErrorCode, ...a: unknown[]) => ReturnType<typeof appError>)(
    code,
    ...args,
  );
}

describe('the error catalog', () => {
  for (const [code, args, status, text] of CONTRACT) {
    it(`${code} answers ${status} \`${text}\``, () => {
      const error = render(code, args);
      assert.equal(error.status, status);
      assert.equal(error.message, text);
      assert.equal(statusOf(code), status);
    });
  }

  it('covers every contract code listed above', () => {
    for (const [code] of CONTRACT) assert.ok(errorCodes.includes(code), code);
  });

  it('answers 503 with Retry-After when the node is saturated', () => {
    const error = appErrorWithHeaders('NODE_SATURATED', { 'Retry-After': '2' });
    assert.equal(error.status, 503);
    assert.equal(error.headers['Retry-After'], '2');
  });

  it('gives every code a client- or server-error status and a non-empty text', () => {
    for (const code of errorCodes) {
      const status = statusOf(code);
      assert.ok(status >= 400 && status <= 599, `${code}: ${status}`);
    }
  });
});
