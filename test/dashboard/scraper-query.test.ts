import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { emptyForm, formToConfig } from '../../dashboard/src/lib/config-form.js';
import { newStep } from '../../dashboard/src/lib/instruction-steps.js';
import { configToQuery, curlCommand, runQuery } from '../../dashboard/src/lib/scraper-query.js';
import { parseInstructions } from '../../src/scrape/params/instructions.js';

test('a config becomes scraper query parameters', () => {
  const q = configToQuery({
    url: 'https://e.com/?a=1',
    render: true,
    block_resources: 'image,font',
    instructions: [{ click: '#x' }],
  });
  assert.equal(
    q.toString(),
    'url=https%3A%2F%2Fe.com%2F%3Fa%3D1&render=true&block_resources=image%2Cfont&instructions=%5B%7B%22click%22%3A%22%23x%22%7D%5D',
  );
});

test('running a workflow as a screenshot overrides the output and turns rendering on', () => {
  const q = runQuery('wf_1', 'screenshot');
  assert.equal(q.get('workflow_id'), 'wf_1');
  assert.equal(q.get('screenshot'), 'true');
  assert.equal(q.get('markdown'), 'false');
  assert.equal(q.get('render'), 'true');
  assert.equal(runQuery('wf_1', 'saved').toString(), 'workflow_id=wf_1');
});

test('the curl command uses the key variable and survives quotes in values', () => {
  const q = configToQuery({ url: "https://e.com/it's", markdown: true });
  const cmd = curlCommand('http://127.0.0.1:8080', q);
  assert.match(cmd, /-H "X-API-Key: \$PAGEGRAB_API_KEY"/);
  assert.match(cmd, /-o page\.md$/);
  // The shell must hand curl exactly the value typed: run the quoting through a real sh.
  const arg = cmd
    .split(' \\\n  ')
    .find((l) => l.startsWith('--data-urlencode'))
    ?.slice('--data-urlencode '.length);
  assert.ok(arg);
  const echoed = execFileSync('sh', ['-c', `printf %s ${arg}`], { encoding: 'utf8' });
  assert.equal(echoed, "url=https://e.com/it's");
});

test('the playground sends wait_until and the new step kinds as the API takes them', () => {
  const config = formToConfig({
    ...emptyForm(),
    url: 'https://e.com/',
    render: true,
    wait_until: 'networkidle',
    instructions: [
      { ...newStep('press'), keyName: 'Enter' },
      newStep('scroll'),
      { ...newStep('evaluate'), script: "document.title = 'x'" },
      newStep('infinite_scroll'),
    ],
  });
  const q = configToQuery(config);
  assert.equal(q.get('wait_until'), 'networkidle');
  const steps = [
    { press: 'Enter' },
    { scroll: { direction: 'down', selector: null } },
    { evaluate: "document.title = 'x'" },
    { infinite_scroll: { max_scrolls: 10, delay: 500 } },
  ];
  assert.deepEqual(JSON.parse(q.get('instructions') ?? ''), steps);
  assert.deepEqual(parseInstructions(q.get('instructions')), steps);
  assert.match(
    curlCommand('http://127.0.0.1:8080', q),
    /--data-urlencode 'wait_until=networkidle'/,
  );
  // The default is left out, as the server's own default.
  assert.equal(
    configToQuery(formToConfig({ ...emptyForm(), url: 'https://e.com/' })).has('wait_until'),
    false,
  );
});
