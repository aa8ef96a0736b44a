import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import {
  normalizeWorkflowConfig,
  parseScraperRequest,
  savedConfigFromWorkflow,
  workflowConfigSchema,
} from '../../../src/scrape/params/index.js';
import { assertAppError } from './assert-app-error.js';

const URL_OK = 'https://example.com/a';
// TypeBox knows no formats by itself; Fastify's Ajv brings `uri` through ajv-formats.
if (!FormatRegistry.Has('uri')) FormatRegistry.Set('uri', (value) => URL.canParse(value));

describe('normalizeWorkflowConfig stores normalised values', () => {
  it('keeps url, fills render=false and stores nothing else by default', () => {
    assert.deepEqual(normalizeWorkflowConfig({ url: URL_OK }), { url: URL_OK, render: false });
  });

  it('turns strings into booleans and numbers, instructions text into an array', () => {
    const config = normalizeWorkflowConfig({
      url: URL_OK,
      render: 'true',
      window_width: '1280',
      window_height: 720,
      screenshot_full_page: 'TRUE',
      block_resources: 'Image , font',
      block_ads: 1,
      proxy_type: 'mobile',
      proxy_country: 'fr',
      webhook_url: 'http://127.0.0.1:8081/hook',
      instructions: '[{"fill":{"selector":"#q","text":"x"}},{"click":"#go"}]',
      timeout: '30000',
    });
    assert.deepEqual(config, {
      url: URL_OK,
      render: true,
      window_width: 1280,
      window_height: 720,
      screenshot_full_page: true,
      block_resources: 'image, font',
      block_ads: true,
      webhook_url: 'http://127.0.0.1:8081/hook',
      proxy_type: 'mobile',
      proxy_country: 'FR',
      instructions: [{ fill: { selector: '#q', text: 'x', delay: 0 } }, { click: '#go' }],
      timeout: 30000,
    });
    assert.ok(Value.Check(workflowConfigSchema, config), 'the stored form matches its schema');
  });

  it('stores block_resources none (or an empty list) as "none"', () => {
    assert.equal(
      normalizeWorkflowConfig({ url: URL_OK, block_resources: '' }).block_resources,
      'none',
    );
    assert.equal(
      normalizeWorkflowConfig({ url: URL_OK, block_resources: [] }).block_resources,
      'none',
    );
  });

  it('accepts block_resources as an array of names', () => {
    const config = normalizeWorkflowConfig({
      url: URL_OK,
      render: true,
      block_resources: ['media'],
    });
    assert.equal(config.block_resources, 'media');
  });

  it('silently drops api_key and apiKey (keys are never stored)', () => {
    const config = normalizeWorkflowConfig({ url: URL_OK, api_key: 'secret', apiKey: 'secret' });
    assert.deepEqual(config, { url: URL_OK, render: false });
  });

  it('treats null fields as absent (a merge patch removes them)', () => {
    const config = normalizeWorkflowConfig({ url: URL_OK, webhook_url: null, render: null });
    assert.deepEqual(config, { url: URL_OK, render: false });
  });

  it('is idempotent', () => {
    const once = normalizeWorkflowConfig({
      url: URL_OK,
      render: '1',
      instructions: '[{"delay":5}]',
    });
    assert.deepEqual(normalizeWorkflowConfig(once), once);
  });
});

describe('normalizeWorkflowConfig refuses with the contract texts', () => {
  const cases: [string, unknown, string][] = [
    ['no config', undefined, 'Config is required!'],
    ['null config', null, 'Config is required!'],
    [
      'a string config',
      '{"url":"https://example.com"}',
      'Invalid value for config: expected a JSON object',
    ],
    ['an array config', [], 'Invalid value for config: expected a JSON object'],
    ['no url', { render: true }, 'URL is required!'],
    ['an unknown field', { url: URL_OK, colour: 'red' }, 'Unknown config field: colour'],
    ['workflow_id', { url: URL_OK, workflow_id: 'w' }, 'Unknown config field: workflow_id'],
    ['a nested config', { url: URL_OK, config: {} }, 'Unknown config field: config'],
    ['camelCase names', { url: URL_OK, windowWidth: 800 }, 'Unknown config field: windowWidth'],
    [
      'a bad boolean',
      { url: URL_OK, render: 'yes' },
      'Invalid value for render: expected true or false',
    ],
    [
      'a fractional width',
      { url: URL_OK, window_width: 800.5 },
      'Invalid value for window_width: expected an integer from 320 to 3840',
    ],
    [
      'a bad instruction',
      { url: URL_OK, render: true, instructions: [{ click: '' }] },
      'Invalid instruction at index 0: click must be a non-empty string',
    ],
    [
      'a screenshot without render',
      { url: URL_OK, screenshot: true },
      'screenshot requires render=true',
    ],
    [
      'two outputs',
      { url: URL_OK, render: true, markdown: true, screenshot: true },
      'Only one output type can be requested per request.',
    ],
  ];
  for (const [name, input, message] of cases) {
    it(`${name}: ${message}`, () => assertAppError(() => normalizeWorkflowConfig(input), message));
  }
});

describe('a saved workflow config runs as if its fields were sent in the query', () => {
  const configs: Record<string, unknown>[] = [
    { url: URL_OK },
    { url: URL_OK, render: true, screenshot: true, window_width: 800, window_height: 600 },
    {
      url: URL_OK,
      markdown: 'true',
      block_ads: true,
      block_cookie_banners: '1',
      proxy_country: 'de',
    },
    {
      url: URL_OK,
      render: 'true',
      block_resources: 'image, font',
      instructions: [
        { wait: '#a' },
        { fill: { selector: '#q', text: 'x', delay: 3 } },
        { delay: 10 },
      ],
      webhook_url: 'https://hooks.example.net/x',
      proxy_type: 'residential',
      timeout: 90000,
    },
  ];
  for (const input of configs) {
    it(`round-trips ${Object.keys(input).join(', ')}`, () => {
      const stored = normalizeWorkflowConfig(input);
      const viaWorkflow = parseScraperRequest(
        { api_key: 'k', workflow_id: 'wf' },
        savedConfigFromWorkflow(stored),
      );
      const asQuery = Object.fromEntries(
        Object.entries(stored).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      );
      assert.deepEqual(viaWorkflow, parseScraperRequest({ api_key: 'k', ...asQuery }));
    });
  }

  it('reads older rows holding api_key and render as a string', () => {
    const saved = savedConfigFromWorkflow({ url: URL_OK, api_key: 'old', render: 'true' });
    assert.equal(parseScraperRequest({ workflow_id: 'w', screenshot: '1' }, saved).render, true);
  });
});
