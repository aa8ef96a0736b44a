/**
 * What change_tracking adds to a plan's price (pure: the planner's question to the model
 * port): nothing without a question; two model calls with json_schema or json_prompt (the
 * previous page and the current one, returned at the settle when not asked); a 400 naming
 * the settings without a model, before anything is fetched.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAppError } from '../../../src/errors.js';
import { modelCallPrice } from '../../../src/scrape/output/model-output.js';

const model = { callPrice: 4, checkSchema: () => {} };
const none = { jsonSchema: null, jsonPrompt: null };

test('change_tracking without a question costs no model call, with or without a model', () => {
  assert.equal(modelCallPrice('change_tracking', none, model), 0);
  assert.equal(modelCallPrice('change_tracking', none, null), 0);
});

test('change_tracking with json_prompt or json_schema reserves two model calls', () => {
  assert.equal(modelCallPrice('change_tracking', { ...none, jsonPrompt: 'The price' }, model), 8);
  assert.equal(
    modelCallPrice('change_tracking', { ...none, jsonSchema: { type: 'object' } }, model),
    8,
  );
});

test("change_tracking's json mode without a model is a 400 naming it and the settings", () => {
  assert.throws(
    () => modelCallPrice('change_tracking', { ...none, jsonPrompt: 'The price' }, null),
    (error: unknown) =>
      isAppError(error) &&
      error.status === 400 &&
      /^The change_tracking json mode \(json_schema and json_prompt\) needs a language model.*OPENAI_BASE_URL/.test(
        error.message,
      ),
  );
});

test("change_tracking's json mode checks the schema before anything is fetched", () => {
  const refusing = {
    callPrice: 4,
    checkSchema: () => {
      throw new Error('Invalid JSON schema');
    },
  };
  assert.throws(
    () => modelCallPrice('change_tracking', { ...none, jsonSchema: { type: 'x' } }, refusing),
    /Invalid JSON schema/,
  );
});
