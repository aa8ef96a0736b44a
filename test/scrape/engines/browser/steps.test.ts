/**
 * The step kinds beyond wait, fill, click and delay: each does what it says on a real
 * page, hands back what it produced, and a failing one is a prompt 422 with its index.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createBrowserEngine } from '../../../../src/scrape/engines/browser/index.js';
import type { Instruction } from '../../../../src/scrape/types.js';
import { type FixtureSite, startFixtureSite } from '../../../helpers/fixture-site.js';
import { jpegSize, pngSize, renderPlan } from './plan-fixture.js';

let site: FixtureSite;
const engine = createBrowserEngine({ allowPrivateNetworks: true });

const STEPS_PAGE = `<!doctype html><html><head><title>steps</title></head>
<body style="margin:0">
<input id="q"><p id="keys"></p>
<div id="box" style="height:200px;overflow:auto"><div style="height:2000px">inner</div></div>
<button class="b" onclick="this.textContent='clicked'">one</button>
<button class="b" onclick="this.textContent='clicked'">two</button>
<button class="b" onclick="this.textContent='clicked'">three</button>
<a id="away" href="/page">away</a>
<div style="height:3000px">tall</div>
<script>
document.getElementById('q').addEventListener('keydown', (e) => {
  document.getElementById('keys').textContent += e.key + ' ';
});
</script></body></html>`;

/** A feed that appends 5 items of 200 px each time its end comes into view, up to `max`. */
const feed = (max: number) => `<!doctype html><html><body style="margin:0">
<ol id="feed"></ol><div id="end" style="height:1px"></div>
<script>
const list = document.getElementById('feed');
const more = () => {
  for (let i = 0; i < 5 && list.children.length < ${max}; i++) {
    const item = document.createElement('li');
    item.style.height = '200px';
    item.textContent = 'item ' + (list.children.length + 1);
    list.append(item);
  }
};
more();
new IntersectionObserver((entries) => { if (entries[0].isIntersecting) more(); })
  .observe(document.getElementById('end'));
</script></body></html>`;

before(async () => {
  site = await startFixtureSite();
  site.html('/steps', STEPS_PAGE);
  site.html('/feed', feed(30));
  site.html('/endless', feed(100_000));
});

after(async () => {
  await engine.close();
  await site.close();
});

async function run(instructions: Instruction[], path = '/steps', timeoutMs = 20_000) {
  return engine.render(renderPlan(site.url(path), { instructions, timeoutMs }));
}

/** The values the evaluate steps returned. */
async function values(instructions: Instruction[], path?: string): Promise<unknown[]> {
  const snapshot = await run(instructions, path);
  return snapshot.actions!.javascriptReturns.map((r) => r.value);
}

describe('press and write', () => {
  test('press sends the key to the focused element', async () => {
    const snapshot = await run([{ click: '#q' }, { press: 'Enter' }, { press: 'Tab' }]);
    assert.match(snapshot.html, /<p id="keys">Enter Tab <\/p>/);
  });

  test('write types into the focused element key by key', async () => {
    const [value] = await values([
      { click: '#q' },
      { write: 'hi!' },
      { evaluate: "document.getElementById('q').value" },
    ]);
    assert.equal(value, 'hi!');
  });

  test('a key Playwright does not know is 422 naming the step', async () => {
    await assert.rejects(run([{ click: '#q' }, { press: 'NoSuchKey' }]), {
      code: 'INSTRUCTION_FAILED',
      status: 422,
      message: /^Instruction 1 \(press\) failed: .*NoSuchKey/,
    });
  });
});

describe('scroll', () => {
  test('moves the window one window height down, then back up', async () => {
    const down = { scroll: { direction: 'down', selector: null } } as const;
    const up = { scroll: { direction: 'up', selector: null } } as const;
    const scrollY = { evaluate: 'window.scrollY' };
    assert.deepEqual(await values([down, scrollY, down, scrollY, up, scrollY]), [600, 1200, 600]);
  });

  test('with a selector moves that element by its own visible height', async () => {
    const [top, windowY] = await values([
      { scroll: { direction: 'down', selector: '#box' } },
      { evaluate: "document.getElementById('box').scrollTop" },
      { evaluate: 'window.scrollY' },
    ]);
    assert.deepEqual([top, windowY], [200, 0]);
  });

  test('a selector that matches nothing is 422 at once', async () => {
    await assert.rejects(run([{ scroll: { direction: 'down', selector: '#nope' } }]), {
      code: 'INSTRUCTION_FAILED',
      message: 'Instruction 0 (scroll) failed: no element matches #nope',
    });
  });
});

describe('infinite_scroll', () => {
  test('scrolls until the page stops growing', async () => {
    const snapshot = await run([{ infinite_scroll: { max_scrolls: 20, delay: 500 } }], '/feed');
    assert.match(snapshot.html, /item 30</);
  });

  test('stops after max_scrolls on a page that never ends', async () => {
    const snapshot = await run([{ infinite_scroll: { max_scrolls: 2, delay: 500 } }], '/endless');
    // 5 items at load, 5 more per scroll.
    assert.match(snapshot.html, /item 15</);
    assert.doesNotMatch(snapshot.html, /item 16</);
  });
});

describe('click_all', () => {
  test('clicks every element the selector matches', async () => {
    const snapshot = await run([{ click_all: 'button.b' }]);
    assert.equal(snapshot.html.match(/>clicked</g)?.length, 3);
  });

  test('skips the matches an earlier click removed', async () => {
    site.html(
      '/closing',
      `<p id="n">0</p>${'<button class="x" onclick="document.querySelectorAll(\'.x\').forEach((b) => b.remove()); n.textContent++">x</button>'.repeat(3)}`,
    );
    const snapshot = await run([{ click_all: '.x' }], '/closing');
    assert.match(snapshot.html, /<p id="n">1<\/p>/);
  });

  test('no match is 422 with the step index', async () => {
    await assert.rejects(run([{ press: 'Tab' }, { click_all: '.none' }]), {
      code: 'INSTRUCTION_FAILED',
      message: 'Instruction 1 (click_all) failed: no element matches .none',
    });
  });
});

describe('evaluate', () => {
  test('returns an expression value with its type', async () => {
    const snapshot = await run([{ evaluate: 'document.title' }, { evaluate: 'document.title;' }]);
    assert.deepEqual(snapshot.actions!.javascriptReturns, [
      { type: 'string', value: 'steps' },
      { type: 'string', value: 'steps' },
    ]);
  });

  test('runs a function body whose return is the value, with await', async () => {
    const snapshot = await run([
      { evaluate: 'const n = 21; return n * 2;' },
      { evaluate: "await new Promise((r) => setTimeout(() => r('later'), 50))" },
      { evaluate: "document.title = 'changed'" },
    ]);
    assert.deepEqual(snapshot.actions!.javascriptReturns, [
      { type: 'number', value: 42 },
      { type: 'string', value: 'later' },
      { type: 'string', value: 'changed' },
    ]);
    assert.match(snapshot.html, /<title>changed<\/title>/);
  });

  test('makes values JSON cannot hold safe, keeping their type', async () => {
    const snapshot = await run([
      {
        evaluate: `const o = { f() {}, el: document.body, big: 10n, inf: Infinity,
          when: new Date(0), tags: new Set(['a']), map: new Map([['k', 1]]) };
          o.self = o; return o;`,
      },
      { evaluate: '() => 1' },
      { evaluate: 'undefined' },
      { evaluate: 'window' },
    ]);
    const [object, fn, nothing, win] = snapshot.actions!.javascriptReturns;
    assert.deepEqual(object, {
      type: 'object',
      value: {
        el: '[BODY]',
        big: '10',
        inf: 'Infinity',
        when: '1970-01-01T00:00:00.000Z',
        tags: ['a'],
        map: { k: 1 },
        self: '[Circular]',
      },
    });
    assert.deepEqual(fn, { type: 'function', value: null });
    assert.deepEqual(nothing, { type: 'undefined', value: null });
    assert.equal(win!.type, 'object');
    assert.equal(typeof win!.value, 'object');
  });

  test('a script that throws is 422 with its error', async () => {
    await assert.rejects(run([{ press: 'Tab' }, { evaluate: "throw new Error('boom')" }]), {
      code: 'INSTRUCTION_FAILED',
      message: /^Instruction 1 \(evaluate\) failed: .*boom/,
    });
  });

  test('a value of more than a million characters is 422 rather than a huge answer', async () => {
    await assert.rejects(run([{ evaluate: "'x'.repeat(1_000_000)" }]), {
      code: 'INSTRUCTION_FAILED',
      message:
        "Instruction 0 (evaluate) failed: the script's value is 1000002 characters as JSON, more than 1000000",
    });
  });

  test('a script that never finishes is 422 before the budget ends', async () => {
    await assert.rejects(run([{ evaluate: 'await new Promise(() => {})' }], '/steps', 3_000), {
      code: 'INSTRUCTION_FAILED',
      message: 'Instruction 0 (evaluate) failed: the script did not finish in time',
    });
  });

  test('a script that navigates away ran: its value is null and the steps go on', async () => {
    const snapshot = await run([
      { evaluate: "location.href = '/page'; await new Promise(() => {})" },
      { wait: 'h1' },
    ]);
    assert.equal(snapshot.finalUrl, site.url('/page'));
    assert.deepEqual(snapshot.actions!.javascriptReturns, [{ type: 'undefined', value: null }]);
  });
});

describe('screenshot and snapshot steps', () => {
  test('a screenshot step gives PNG or JPEG bytes in its own window, then restores the run window', async () => {
    const snapshot = await run([
      { screenshot: { fullPage: false, quality: null, viewport: null } },
      { screenshot: { fullPage: false, quality: 80, viewport: { width: 500, height: 400 } } },
      { screenshot: { fullPage: true, quality: null, viewport: null } },
      { evaluate: '[innerWidth, innerHeight]' },
    ]);
    const [viewport, jpeg, full] = snapshot.actions!.screenshots;
    assert.deepEqual(pngSize(viewport!), { width: 800, height: 600 });
    assert.deepEqual(jpegSize(jpeg!), { width: 500, height: 400 });
    assert.equal(pngSize(full!).width, 800);
    assert.ok(pngSize(full!).height > 3000, 'the full page, not the window');
    assert.deepEqual(snapshot.actions!.javascriptReturns[0]!.value, [800, 600]);
  });

  test('a snapshot step keeps the HTML and URL of that moment', async () => {
    const snapshot = await run([
      { snapshot: true },
      { evaluate: "document.title = 'changed'" },
      { click: '#away' },
      { wait: 'h1' },
      { snapshot: true },
    ]);
    const [first, second] = snapshot.actions!.snapshots;
    assert.equal(first!.url, site.url('/steps'));
    assert.match(first!.html, /<title>steps<\/title>/);
    assert.equal(second!.url, site.url('/page'));
    assert.match(second!.html, /Hello fixture/);
  });

  test('actions are left out when no step produced anything, and kept for a document', async () => {
    const plain = await run([{ press: 'Tab' }]);
    assert.equal(plain.actions, undefined);
    const document = await engine.render(
      renderPlan(site.url('/steps'), {}, { output: 'document' }),
    );
    assert.deepEqual(document.actions, { screenshots: [], snapshots: [], javascriptReturns: [] });
  });
});
