/**
 * Which failures count as "the database cannot be reached" (a 503 with Retry-After, never
 * charged) and which stay the service's own (a 500): one list, in store/database-errors.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asDatabaseUnavailable, isDatabaseUnavailable } from '../../src/store/database-errors.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows PostgreSQL shutdowns, connection exceptions and the statement timeout', () => {
    for (const code of ['57P01', '57P02', '57P03', '57014', '08006', '08001', '08003']) {
      assert.ok(isDatabaseUnavailable(withCode(code)), code);
    }
  });

  it('knows socket failures, node-postgres texts and a busy embedded database', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'SQLITE_BUSY']) {
      assert.ok(isDatabaseUnavailable(withCode(code)), code);
    }
    for (const text of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Query read timeout',
      'timeout expired',
    ]) {
      assert.ok(isDatabaseUnavailable(new Error(text)), text);
    }
  });

  it('looks through causes and happy-eyeballs aggregates', () => {
    const refused = new AggregateError([withCode('ECONNREFUSED')], 'connect failed');
    assert.ok(isDatabaseUnavailable(refused));
    assert.ok(isDatabaseUnavailable(new Error('wrapped', { cause: withCode('57P01') })));
  });

  it('leaves constraint violations, syntax errors and bugs alone', () => {
    for (const error of [
      withCode('23505'),
      withCode('42601'),
      withCode('SQLITE_CONSTRAINT_UNIQUE'),
      new TypeError('x is undefined'),
      'a string',
      null,
    ]) {
      assert.equal(isDatabaseUnavailable(error), false, String(error));
    }
  });

  it('answers 503 with Retry-After and the catalog text', () => {
    const answer = asDatabaseUnavailable(withCode('57P01'));
    assert.equal(answer?.status, 503);
    assert.equal(answer?.message, 'Service is not ready: database unavailable');
    assert.equal(answer?.headers['Retry-After'], '5');
    assert.equal(asDatabaseUnavailable(new Error('bug')), null);
  });
});
