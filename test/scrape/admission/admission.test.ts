/** Admission (admission.ts): the node slot a door takes first, and the account's limit after it. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../../../src/errors.js';
import {
  createAdmission,
  createMemoryAccountSlots,
} from '../../../src/scrape/admission/admission.js';

const saturated = (error: unknown) =>
  isAppError(error) &&
  error.code === 'NODE_SATURATED' &&
  error.headers['Retry-After'] !== undefined;

describe('admission', () => {
  it('refuses a node slot with 503 and Retry-After once the node is full', () => {
    const admission = createAdmission(createMemoryAccountSlots(), 2);
    admission.holdNode();
    admission.holdNode();
    assert.throws(() => admission.holdNode(), saturated);
    assert.equal(admission.inFlight(), 2);
  });

  it('frees a node slot once, however often it is released', () => {
    const admission = createAdmission(createMemoryAccountSlots(), 2);
    const slot = admission.holdNode();
    admission.holdNode();
    slot.release();
    slot.release();
    assert.equal(admission.inFlight(), 1);
  });

  it('admits on the door’s slot without taking a second one, and frees it with the run', async () => {
    const admission = createAdmission(createMemoryAccountSlots(), 1);
    const slot = admission.holdNode();
    const release = await admission.admit('a', 10, 1000, slot);
    assert.equal(admission.inFlight(), 1);
    await release();
    assert.equal(admission.inFlight(), 0);
    slot.release();
    assert.equal(admission.inFlight(), 0);
  });

  it('answers the account’s limit with 429 and gives the door’s slot back', async () => {
    const admission = createAdmission(createMemoryAccountSlots(), 5);
    await admission.admit('a', 1, 1000);
    const slot = admission.holdNode();
    await assert.rejects(
      admission.admit('a', 1, 1000, slot),
      (error) => isAppError(error) && error.code === 'TOO_MANY_CONCURRENT',
    );
    assert.equal(admission.inFlight(), 1);
  });
});
