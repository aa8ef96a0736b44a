import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorkflowConfig } from '../../dashboard/src/api/types.js';
import {
  configPatch,
  configToForm,
  emptyForm,
  FORM_FIELDS,
  formToConfig,
  newStep,
} from '../../dashboard/src/lib/config-form.js';
import { QUERY_ONLY_PARAMETERS, SCRAPER_PARAMETERS } from '../../src/scrape/params/param-names.js';

test('the form owns every parameter a workflow config accepts (contract 25)', () => {
  const configParams = SCRAPER_PARAMETERS.filter(
    (p) => !(QUERY_ONLY_PARAMETERS as readonly string[]).includes(p),
  );
  assert.deepEqual([...FORM_FIELDS].sort(), [...configParams].sort());
});

test('a config with every field set round-trips through the form', () => {
  const saved: WorkflowConfig = {
    url: 'https://e.com/',
    render: true,
    window_width: 1024,
    window_height: 700,
    screenshot: true,
    screenshot_full_page: true,
    markdown: true,
    block_resources: 'stylesheet, other',
    block_ads: true,
    block_cookie_banners: true,
    block_chat_widgets: true,
    webhook_url: 'https://hooks.example.com/x',
    proxy_type: 'mobile',
    proxy_country: 'fr',
    timeout: 5000,
    instructions: [{ click: '#a' }, { delay: 5 }],
  };
  assert.equal(Object.keys(saved).length, FORM_FIELDS.length);
  assert.deepEqual(formToConfig(configToForm(saved)), saved);
});

test('a form becomes a config without defaults or empty inputs', () => {
  const form = {
    ...emptyForm(),
    url: ' https://example.com/ ',
    render: true,
    window_width: '800',
    block_ads: true,
  };
  assert.deepEqual(formToConfig(form), {
    url: 'https://example.com/',
    render: true,
    window_width: 800,
    block_ads: true,
  });
});

test('text typed into a number field is sent as typed, for the server to name it', () => {
  const form = { ...emptyForm(), url: 'https://example.com/', timeout: '12abc' };
  assert.equal(formToConfig(form).timeout, '12abc');
});

test('instruction steps keep their order and shape', () => {
  const steps = [
    { ...newStep('wait'), selector: '#q' },
    { ...newStep('fill'), selector: '#q', text: 'hi', ms: '20' },
    { ...newStep('click'), selector: '#go' },
    { ...newStep('delay'), ms: '250' },
  ];
  const config = formToConfig({
    ...emptyForm(),
    url: 'https://e.com/',
    render: true,
    instructions: steps,
  });
  assert.deepEqual(config.instructions, [
    { wait: '#q' },
    { fill: { selector: '#q', text: 'hi', delay: 20 } },
    { click: '#go' },
    { delay: 250 },
  ]);
});

test('a saved config round-trips through the form', () => {
  const saved: WorkflowConfig = {
    url: 'https://e.com/',
    render: true,
    window_width: 1024,
    block_resources: 'image, font',
    proxy_type: 'residential',
    proxy_country: 'DE',
    instructions: [{ wait: '#a' }, { fill: { selector: '#b', text: 'x' } }],
  };
  const form = configToForm(saved);
  assert.deepEqual(form.block_resources, ['image', 'font']);
  assert.deepEqual(formToConfig(form), saved);
});

test('instructions saved as a JSON string and render as a string are read', () => {
  const form = configToForm({
    url: 'https://e.com/',
    render: 'true' as unknown as boolean,
    instructions: '[{"click":"#x"}]' as never,
  });
  assert.equal(form.render, true);
  assert.equal(form.instructions[0]?.kind, 'click');
});

test('the merge patch sets changes, nulls what the form cleared, and keeps unknown fields', () => {
  const saved: WorkflowConfig = {
    url: 'https://e.com/',
    render: true,
    block_ads: true,
    webhook_url: 'https://h.example/',
    extra_thing: 1,
  };
  const next = formToConfig({
    ...configToForm(saved),
    block_ads: false,
    webhook_url: '',
    markdown: true,
  });
  assert.deepEqual(configPatch(saved, next), {
    block_ads: null,
    webhook_url: null,
    markdown: true,
  });
});

test('no patch when nothing changed', () => {
  const saved: WorkflowConfig = {
    url: 'https://e.com/',
    render: false,
    instructions: [{ delay: 5 }],
  };
  assert.equal(configPatch(saved, formToConfig(configToForm(saved))), null);
});
