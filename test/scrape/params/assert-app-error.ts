import assert from 'node:assert/strict';
import { isAppError } from '../../../src/errors.js';

/** Asserts that `run` throws an AppError with this status and exactly this text. */
export function assertAppError(run: () => unknown, message: string, status = 400): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(isAppError(error), `expected an AppError, got ${String(error)}`);
    assert.equal(error.message, message);
    assert.equal(error.status, status);
    return true;
  });
}
