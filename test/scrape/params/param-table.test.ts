import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SCRAPER_PARAMETERS, workflowIdOf } from '../../../src/scrape/params/index.js';
import { paramFields } from '../../../src/scrape/params/param-fields.js';
import { QUERY_ONLY_PARAMETERS } from '../../../src/scrape/params/param-names.js';
import { assertAppError } from './assert-app-error.js';

describe('the parameter table', () => {
  it('lists every option in the documented parameter order', () => {
    const names = Object.values(paramFields).map((field) => field.name);
    const queryOnly: readonly string[] = QUERY_ONLY_PARAMETERS;
    const documented = SCRAPER_PARAMETERS.filter((name) => !queryOnly.includes(name));
    assert.deepEqual(names, documented);
  });
});

describe('workflowIdOf', () => {
  it('reads the id, treating absent and empty as none', () => {
    assert.equal(workflowIdOf({ workflow_id: ' wf_1 ' }), 'wf_1');
    assert.equal(workflowIdOf({ workflow_id: '' }), null);
    assert.equal(workflowIdOf({}), null);
  });

  it('refuses a repeated workflow_id', () => {
    assertAppError(
      () => workflowIdOf({ workflow_id: ['a', 'b'] }),
      'Parameter workflow_id must be given only once',
    );
  });
});
