import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Instruction, WorkflowConfig } from '../../dashboard/src/api/types.js';
import {
  configPatch,
  configToForm,
  emptyForm,
  FORM_FIELDS,
  formToConfig,
} from '../../dashboard/src/lib/config-form.js';
import { newStep, STEP_KINDS } from '../../dashboard/src/lib/instruction-steps.js';
import { parseInstructions } from '../../src/scrape/params/instructions.js';
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
    wait_until: 'networkidle',
    instructions: [{ click: '#a' }, { delay: 5 }],
    extract_rules: { title: 'h1', links: { selector: 'a', type: 'list', output: '@href' } },
    structured_data: true,
    json_schema: { type: 'object', properties: { title: { type: 'string' } } },
    json_prompt: 'The title',
    summary: true,
    change_tracking: true,
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

/** Every kind, as the server stores it in a workflow config (the test below checks that). */
const STORED_STEPS: Instruction[] = [
  { wait: '#a' },
  { fill: { selector: '#q', text: 'hi', delay: 0 } },
  { click: '#go' },
  { delay: 250 },
  { press: 'Enter' },
  { press: 'Control+A' },
  { scroll: { direction: 'down', selector: null } },
  { scroll: { direction: 'up', selector: '#feed' } },
  { evaluate: "document.querySelector('#more')?.click()" },
  { evaluate: 'await new Promise((r) => setTimeout(r, 100));\nreturn 1;' },
  { infinite_scroll: { max_scrolls: 10, delay: 500 } },
  { infinite_scroll: { max_scrolls: 100, delay: 0 } },
];

test('the stored step examples are exactly what the server stores', () => {
  assert.deepEqual(parseInstructions(STORED_STEPS), STORED_STEPS);
});

for (const step of STORED_STEPS) {
  test(`a stored ${JSON.stringify(step)} comes back from the form identical`, () => {
    const saved: WorkflowConfig = { url: 'https://e.com/', render: true, instructions: [step] };
    const form = configToForm(saved);
    assert.equal(form.instructions[0]?.kind, Object.keys(step)[0]);
    assert.deepEqual(formToConfig(form), saved);
    assert.equal(configPatch(saved, formToConfig(form)), null);
  });
}

test('the new kinds take their inputs and are written as the server stores them', () => {
  const steps = [
    { ...newStep('press'), keyName: 'Tab' },
    { ...newStep('scroll'), direction: 'up' as const },
    { ...newStep('scroll'), selector: '#feed' },
    { ...newStep('evaluate'), script: 'window.scrollTo(0, 0)' },
    newStep('infinite_scroll'),
    { ...newStep('infinite_scroll'), scrolls: '3', ms: '0' },
  ];
  const config = formToConfig({ ...emptyForm(), url: 'https://e.com/', instructions: steps });
  const written: Instruction[] = [
    { press: 'Tab' },
    { scroll: { direction: 'up', selector: null } },
    { scroll: { direction: 'down', selector: '#feed' } },
    { evaluate: 'window.scrollTo(0, 0)' },
    { infinite_scroll: { max_scrolls: 10, delay: 500 } },
    { infinite_scroll: { max_scrolls: 3, delay: 0 } },
  ];
  assert.deepEqual(config.instructions, written);
  // Saved as sent: the next edit finds nothing changed.
  assert.deepEqual(parseInstructions(written), written);
});

test('every kind the editor offers has a stored example', () => {
  const stored = new Set(STORED_STEPS.map((s) => Object.keys(s)[0]));
  assert.deepEqual(
    STEP_KINDS.filter((k) => !stored.has(k)),
    [],
  );
});

test('wait_until round-trips and the default (settled) is left out of the config', () => {
  for (const wait_until of ['settled', 'domcontentloaded', 'networkidle', 'load'] as const) {
    const saved: WorkflowConfig = { url: 'https://e.com/', render: true, wait_until };
    assert.equal(configToForm(saved).wait_until, wait_until);
    assert.deepEqual(formToConfig(configToForm(saved)), saved);
  }
  const config = formToConfig({ ...emptyForm(), url: 'https://e.com/', render: true });
  assert.equal('wait_until' in config, false);
  const saved: WorkflowConfig = { url: 'https://e.com/', render: true, wait_until: 'networkidle' };
  const next = formToConfig({ ...configToForm(saved), wait_until: '' });
  assert.deepEqual(configPatch(saved, next), { wait_until: null });
});

test('a saved step the editor cannot show is kept as saved, in its place', () => {
  const unknown = [
    { hover: '#menu' },
    { scroll: 'down' },
    { infinite_scroll: true },
    { scroll: { direction: 'left', selector: null } },
    { scroll: { direction: 'down' } },
    { wait: '#x', timeout: 5 },
    { fill: { selector: '#q', text: 'x', clear: true } },
    { infinite_scroll: { max_scrolls: 5, delay: 10, until: '#end' } },
    { press: 13 },
    {},
    null,
    'click',
  ] as unknown as Instruction[];
  const saved: WorkflowConfig = {
    url: 'https://e.com/',
    render: true,
    instructions: [{ click: '#a' }, ...unknown, { press: 'Enter' }],
  };
  const form = configToForm(saved);
  assert.deepEqual(
    form.instructions.map((s) => s.kind),
    ['click', ...unknown.map(() => 'opaque'), 'press'],
  );
  assert.deepEqual(formToConfig(form), saved);
  assert.equal(configPatch(saved, formToConfig(form)), null);
  // Editing the steps around it sends it back untouched, where it now stands.
  const [first, ...rest] = form.instructions;
  assert.ok(first);
  const next = formToConfig({ ...form, instructions: [...rest, first] });
  assert.deepEqual(configPatch(saved, next), {
    instructions: [...unknown, { press: 'Enter' }, { click: '#a' }],
  });
});
