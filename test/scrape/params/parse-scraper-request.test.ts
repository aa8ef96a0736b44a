import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseScraperRequest } from '../../../src/scrape/params/index.js';
import { assertAppError } from './assert-app-error.js';

const URL_OK = 'https://example.com/page';
const parse = (query: Record<string, unknown>) =>
  parseScraperRequest({ api_key: 'key', url: URL_OK, ...query });

const ALLOWED_TYPES =
  'stylesheet, image, media, font, script, texttrack, xhr, fetch, eventsource, manifest, other';

describe('parseScraperRequest refuses with the contract texts', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['unknown parameter', { scrennshot: 'true' }, 'Unknown parameter: scrennshot'],
    [
      'unknown parameter named like a prototype key',
      { constructor: '1' },
      'Unknown parameter: constructor',
    ],
    ['__proto__ as a parameter', JSON.parse('{"__proto__":"x"}'), 'Unknown parameter: __proto__'],
    ['camelCase is not a parameter', { windowWidth: '800' }, 'Unknown parameter: windowWidth'],
    [
      'repeated parameter',
      { render: ['true', 'false'] },
      'Parameter render must be given only once',
    ],
    ['repeated api_key', { api_key: ['a', 'b'] }, 'Parameter api_key must be given only once'],
    ['boolean yes', { render: 'yes' }, 'Invalid value for render: expected true or false'],
    ['boolean empty', { markdown: '' }, 'Invalid value for markdown: expected true or false'],
    ['boolean 2', { block_ads: '2' }, 'Invalid value for block_ads: expected true or false'],
    [
      'ftp url',
      { url: 'ftp://example.com/' },
      'Invalid value for url: expected an absolute http or https URL',
    ],
    [
      'relative url',
      { url: '/path' },
      'Invalid value for url: expected an absolute http or https URL',
    ],
    [
      'javascript url',
      { url: 'javascript:alert(1)' },
      'Invalid value for url: expected an absolute http or https URL',
    ],
    [
      'bare host',
      { url: 'example.com' },
      'Invalid value for url: expected an absolute http or https URL',
    ],
    ['missing url', { url: undefined }, 'URL is required!'],
    ['empty url', { url: '' }, 'Invalid value for url: expected an absolute http or https URL'],
    [
      'width too small',
      { window_width: '319' },
      'Invalid value for window_width: expected an integer from 320 to 3840',
    ],
    [
      'width too large',
      { window_width: '3841' },
      'Invalid value for window_width: expected an integer from 320 to 3840',
    ],
    [
      'width not integer',
      { window_width: '800.5' },
      'Invalid value for window_width: expected an integer from 320 to 3840',
    ],
    [
      'width in exponent form',
      { window_width: '1e3' },
      'Invalid value for window_width: expected an integer from 320 to 3840',
    ],
    [
      'height too small',
      { window_height: '239' },
      'Invalid value for window_height: expected an integer from 240 to 2160',
    ],
    [
      'height too large',
      { window_height: '2161' },
      'Invalid value for window_height: expected an integer from 240 to 2160',
    ],
    [
      'unknown resource type',
      { render: 'true', block_resources: 'image, video' },
      `Invalid value for block_resources: unknown type video; allowed types: ${ALLOWED_TYPES}`,
    ],
    [
      'none mixed with types',
      { render: 'true', block_resources: 'none,image' },
      'Invalid value for block_resources: none cannot be combined with other types',
    ],
    [
      'proxy type',
      { proxy_type: 'isp' },
      'Invalid value for proxy_type: expected one of datacenter, residential, mobile',
    ],
    [
      'proxy country of three letters',
      { proxy_country: 'DEU' },
      'Invalid value for proxy_country: expected a two-letter ISO 3166-1 alpha-2 country code',
    ],
    [
      'proxy country with digits',
      { proxy_country: 'D1' },
      'Invalid value for proxy_country: expected a two-letter ISO 3166-1 alpha-2 country code',
    ],
    [
      'webhook not http',
      { webhook_url: 'mailto:a@b.c' },
      'Invalid value for webhook_url: expected an absolute http or https URL',
    ],
    [
      'timeout too short',
      { timeout: '999' },
      'Invalid value for timeout: expected an integer from 1000 to 120000',
    ],
    [
      'timeout too long',
      { timeout: '120001' },
      'Invalid value for timeout: expected an integer from 1000 to 120000',
    ],
    [
      'config not JSON',
      { config: '{window_width:800}' },
      'Invalid value for config: expected a JSON-encoded object',
    ],
    [
      'config an array',
      { config: '[]' },
      'Invalid value for config: expected a JSON-encoded object',
    ],
    ['config unknown field', { config: '{"colour":"red"}' }, 'Unknown config field: colour'],
    ['config holding api_key', { config: '{"api_key":"k"}' }, 'Unknown config field: api_key'],
    [
      'config holding workflow_id',
      { config: '{"workflow_id":"w"}' },
      'Unknown config field: workflow_id',
    ],
    ['config holding config', { config: '{"config":{}}' }, 'Unknown config field: config'],
    [
      'config with a bad value',
      { config: '{"render":"maybe"}' },
      'Invalid value for render: expected true or false',
    ],
    [
      'markdown with screenshot',
      { render: 'true', markdown: 'true', screenshot: 'true' },
      'Only one output type can be requested per request.',
    ],
    [
      'markdown with full page',
      { render: 'true', markdown: '1', screenshot_full_page: '1' },
      'Only one output type can be requested per request.',
    ],
    ['screenshot without render', { screenshot: 'true' }, 'screenshot requires render=true'],
    [
      'full page without render',
      { screenshot_full_page: 'true' },
      'screenshot_full_page requires render=true',
    ],
    [
      'block_resources without render',
      { block_resources: 'image' },
      'block_resources requires render=true',
    ],
    [
      'instructions without render',
      { instructions: '[{"delay":5}]' },
      'instructions requires render=true',
    ],
    [
      'explicit render=false',
      { render: 'false', screenshot: '1' },
      'screenshot requires render=true',
    ],
    [
      'instructions not JSON',
      { render: 'true', instructions: '[{wait}]' },
      'Invalid value for instructions: expected a JSON-encoded array of instruction objects',
    ],
    [
      'a bad instruction',
      { render: 'true', instructions: '[{"delay":5},{"click":"a"},{"fill":{"text":"x"}}]' },
      'Invalid instruction at index 2: fill.selector is required',
    ],
  ];
  for (const [name, query, message] of cases) {
    it(`${name}: ${message}`, () => assertAppError(() => parse(query), message));
  }

  it('reports URL is required! when url is absent and no workflow config is given', () => {
    assertAppError(() => parseScraperRequest({ api_key: 'k', render: 'true' }), 'URL is required!');
  });
});

describe('parseScraperRequest reports the first problem in a documented order', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['unknown name before any value', { render: 'bad', zzz: '1' }, 'Unknown parameter: zzz'],
    [
      'query order among unknown/repeated names',
      { a1: '1', render: ['1', '1'] },
      'Unknown parameter: a1',
    ],
    [
      'table order among values',
      { timeout: '1', render: 'bad', window_width: '1' },
      'Invalid value for render: expected true or false',
    ],
    [
      'config content after instructions',
      { render: 'true', config: '{"x":1}', instructions: '[1]' },
      'Invalid instruction at index 0: expected an object with exactly one of wait, fill, click, delay, press, scroll, evaluate, infinite_scroll',
    ],
    [
      'config content before timeout',
      { config: '{"x":1}', timeout: '1' },
      'Unknown config field: x',
    ],
    [
      'values before URL is required!',
      { url: undefined, render: 'bad' },
      'Invalid value for render: expected true or false',
    ],
    [
      'URL is required! before output rules',
      { url: undefined, markdown: '1', screenshot: '1' },
      'URL is required!',
    ],
    [
      'one output type before render rule',
      { markdown: '1', screenshot: '1' },
      'Only one output type can be requested per request.',
    ],
    [
      'render rule names screenshot first',
      {
        instructions: '[{"delay":1}]',
        block_resources: 'font',
        screenshot_full_page: '1',
        screenshot: '1',
      },
      'screenshot requires render=true',
    ],
    [
      'then screenshot_full_page',
      { instructions: '[{"delay":1}]', block_resources: 'font', screenshot_full_page: '1' },
      'screenshot_full_page requires render=true',
    ],
    [
      'then block_resources',
      { instructions: '[{"delay":1}]', block_resources: 'font' },
      'block_resources requires render=true',
    ],
  ];
  for (const [name, query, message] of cases) {
    it(`${name}: ${message}`, () => assertAppError(() => parse(query), message));
  }
});

describe('parseScraperRequest accepts and normalises', () => {
  it('applies the description defaults', () => {
    assert.deepEqual(parseScraperRequest({ api_key: 'k', url: 'https://example.com' }), {
      url: 'https://example.com/',
      render: false,
      windowWidth: 1920,
      windowHeight: 1080,
      screenshot: false,
      screenshotFullPage: false,
      markdown: false,
      blockResources: [],
      blockAds: false,
      blockCookieBanners: false,
      blockChatWidgets: false,
      webhookUrl: null,
      proxyType: 'datacenter',
      proxyCountry: null,
      instructions: [],
      timeoutMs: 60_000,
      waitUntil: 'settled',
      extractRules: null,
      structuredData: false,
      jsonSchema: null,
      jsonPrompt: null,
      summary: false,
      changeTracking: false,
      waitForMs: 0,
      mobile: false,
      headers: {},
      languages: [],
      skipTlsVerification: false,
      renderWhenNeeded: false,
      proxyEscalation: false,
      document: null,
      sessionId: null,
    });
  });

  for (const [raw, expected] of [
    ['TRUE', true],
    ['True', true],
    ['1', true],
    ['FALSE', false],
    ['0', false],
    ['false', false],
  ] as const) {
    it(`reads the boolean ${raw} as ${expected}`, () => {
      assert.equal(parse({ block_chat_widgets: raw }).blockChatWidgets, expected);
    });
  }

  it('accepts window sizes at both bounds, even without render (validated, unused)', () => {
    const low = parse({ window_width: '320', window_height: '240' });
    assert.deepEqual([low.windowWidth, low.windowHeight, low.render], [320, 240, false]);
    const high = parse({ window_width: '3840', window_height: '2160' });
    assert.deepEqual([high.windowWidth, high.windowHeight], [3840, 2160]);
  });

  it('trims, lower-cases and de-duplicates block_resources, dropping empty items', () => {
    const options = parse({ render: 'true', block_resources: ' image ,Font,, image,' });
    assert.deepEqual(options.blockResources, ['image', 'font']);
  });

  for (const value of ['none', 'NONE', '', ' , ']) {
    it(`reads block_resources=${JSON.stringify(value)} as no blocking, allowed without render`, () => {
      assert.deepEqual(parse({ block_resources: value }).blockResources, []);
    });
  }

  it('accepts all eleven resource types', () => {
    const all = parse({ render: '1', block_resources: ALLOWED_TYPES.replaceAll(' ', '') });
    assert.equal(all.blockResources.length, 11);
  });

  it('upper-cases proxy_country and lower-cases proxy_type', () => {
    const options = parse({ proxy_type: 'Residential', proxy_country: 'de' });
    assert.deepEqual([options.proxyType, options.proxyCountry], ['residential', 'DE']);
  });

  it('keeps screenshot and screenshot_full_page together (a full-page screenshot)', () => {
    const options = parse({ render: '1', screenshot: '1', screenshot_full_page: '1' });
    assert.deepEqual([options.screenshot, options.screenshotFullPage], [true, true]);
  });

  it('allows markdown with screenshots explicitly off', () => {
    assert.equal(parse({ markdown: 'true', screenshot: 'false' }).markdown, true);
  });

  it('reads timeout at its bounds and a webhook URL', () => {
    assert.equal(parse({ timeout: '1000' }).timeoutMs, 1000);
    assert.equal(parse({ timeout: '120000' }).timeoutMs, 120_000);
    assert.equal(
      parse({ webhook_url: 'http://127.0.0.1:9/hook' }).webhookUrl,
      'http://127.0.0.1:9/hook',
    );
  });

  it('reads an empty instructions value as no steps', () => {
    assert.deepEqual(parse({ instructions: '' }).instructions, []);
  });

  it('returns arrays that are not shared between requests', () => {
    const first = parse({});
    first.instructions.push({ delay: 5 });
    first.blockResources.push('image');
    assert.deepEqual([parse({}).instructions, parse({}).blockResources], [[], []]);
  });

  it('accepts workflow_id and api_key without interpreting them', () => {
    assert.equal(parse({ workflow_id: 'wf_1', api_key: 'anything' }).url, URL_OK);
  });
});
