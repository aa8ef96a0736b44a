/** Instructions run in order within the budget; a failing step is a prompt 422. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { renderPlan } from './plan-fixture.js';

let site: FixtureSite;
const engine = createBrowserEngine({ allowPrivateNetworks: true });

const FORM = `<input id="q"><button id="go" onclick="
  setTimeout(() => {
    const p = document.createElement('p');
    p.id = 'result';
    p.textContent = 'You searched for ' + document.getElementById('q').value;
    document.body.append(p);
  }, 300);">Go</button>
  <script>let keys = 0; document.getElementById('q').addEventListener('keydown', () => keys++);
  document.getElementById('go').addEventListener('click', () => document.title = 'keys=' + keys);</script>`;

before(async () => {
  site = await startFixtureSite();
  site.html('/form', FORM);
});

after(async () => {
  await engine.close();
  await site.close();
});

test('fill, click and wait reveal the text the page adds', async () => {
  const plan = renderPlan(site.url('/form'), {
    instructions: [
      { fill: { selector: '#q', text: 'kittens', delay: 0 } },
      { click: '#go' },
      { wait: '#result' },
    ],
  });
  const snapshot = await engine.render(plan);
  assert.match(snapshot.html, /<p id="result">You searched for kittens<\/p>/);
});

test('fill with a delay types key by key', async () => {
  const plan = renderPlan(site.url('/form'), {
    instructions: [
      { fill: { selector: '#q', text: 'abc', delay: 20 } },
      { click: '#go' },
      { wait: '#result' },
    ],
  });
  const snapshot = await engine.render(plan);
  assert.match(snapshot.html, /You searched for abc/);
  // Typed key by key (fill without a delay sends no key events at all).
  assert.match(snapshot.html, /<title>keys=[3-9]<\/title>/);
});

test('a wait for a selector that never appears is 422, not a 504 at the end of the budget', async () => {
  const plan = renderPlan(site.url('/form'), {
    timeoutMs: 2_000,
    instructions: [{ click: '#go' }, { wait: '#never' }],
  });
  await assert.rejects(engine.render(plan), {
    code: 'INSTRUCTION_FAILED',
    status: 422,
    message: 'Instruction 1 (wait) failed: #never did not appear',
  });
});

test('a click on a missing element fails as missing, without waiting for it to appear', async () => {
  const plan = renderPlan(site.url('/form'), {
    timeoutMs: 20_000,
    instructions: [{ click: '#missing' }],
  });
  await assert.rejects(engine.render(plan), {
    code: 'INSTRUCTION_FAILED',
    // The presence check's text: a wait for the element would end in "did not become
    // actionable" (the action timeout) or TIMED_OUT (the budget).
    message: 'Instruction 0 (click) failed: no element matches #missing',
  });
});

test('a delay longer than the rest of the budget is TIMED_OUT', async () => {
  const plan = renderPlan(site.url('/form'), {
    timeoutMs: 1_500,
    instructions: [{ delay: 5_000 }],
  });
  await assert.rejects(engine.render(plan), {
    code: 'TIMED_OUT',
    message: 'Timed out after 1500 ms',
  });
});
