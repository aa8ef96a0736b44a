import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  normalizeWorkflowConfig,
  parseScraperRequest,
  savedConfigFromWorkflow,
} from '../../../src/scrape/params/index.js';

// Each layer sets the timeout, and one field nobody above it sets.
const defaults = { timeoutMs: 10_000, windowHeight: 700 };
const stored = normalizeWorkflowConfig({
  url: 'https://saved.example/',
  render: true,
  timeout: 20_000,
  window_width: 1000,
  webhook_url: 'https://hooks.example/saved',
});
const configParam = JSON.stringify({
  timeout: 30_000,
  proxy_country: 'nl',
  url: 'https://config.example/',
});

describe('precedence: defaults < saved workflow config < config < query', () => {
  it('takes each field from the highest layer that sets it', () => {
    const saved = savedConfigFromWorkflow(stored);
    const options = parseScraperRequest(
      {
        api_key: 'k',
        workflow_id: 'w',
        config: configParam,
        timeout: '40000',
        url: 'https://query.example/',
      },
      saved,
      defaults,
    );
    assert.equal(options.timeoutMs, 40_000, 'query beats config');
    assert.equal(options.url, 'https://query.example/');
    assert.equal(options.proxyCountry, 'NL', 'config beats saved and defaults');
    assert.equal(options.windowWidth, 1000, 'saved beats defaults');
    assert.equal(options.render, true, 'saved beats built-in defaults');
    assert.equal(options.windowHeight, 700, 'operator defaults beat built-in defaults');
    assert.equal(options.markdown, false, 'built-in default when nobody sets it');
  });

  it('falls through one layer at a time', () => {
    const saved = savedConfigFromWorkflow(stored);
    const timeout = (query: Record<string, string>, withSaved: boolean) =>
      parseScraperRequest(
        { url: 'https://q.example/', ...query },
        withSaved ? saved : null,
        defaults,
      ).timeoutMs;
    assert.equal(timeout({ config: configParam, timeout: '40000' }, true), 40_000);
    assert.equal(timeout({ config: configParam }, true), 30_000);
    assert.equal(timeout({}, true), 20_000);
    assert.equal(timeout({}, false), 10_000);
    assert.equal(parseScraperRequest({ url: 'https://q.example/' }).timeoutMs, 60_000);
  });

  it('takes url from the workflow when the query omits it', () => {
    assert.equal(
      parseScraperRequest({ workflow_id: 'w' }, savedConfigFromWorkflow(stored)).url,
      'https://saved.example/',
    );
  });

  it('lets the query turn off what the workflow turned on', () => {
    const saved = savedConfigFromWorkflow(stored);
    const options = parseScraperRequest(
      { workflow_id: 'w', render: 'false', webhook_url: '' },
      saved,
    );
    assert.deepEqual([options.render, options.webhookUrl], [false, null]);
  });

  it('checks the rules on the merged result, not on each layer', () => {
    const saved = savedConfigFromWorkflow(stored); // render=true
    assert.equal(
      parseScraperRequest({ workflow_id: 'w', screenshot: '1' }, saved).screenshot,
      true,
    );
  });

  it('never changes the saved config', () => {
    const saved = savedConfigFromWorkflow(stored);
    const before = structuredClone(saved);
    const options = parseScraperRequest({ workflow_id: 'w', instructions: '[{"delay":3}]' }, saved);
    options.instructions.push({ delay: 4 });
    options.blockResources.push('font');
    assert.deepEqual(saved, before);
  });
});
