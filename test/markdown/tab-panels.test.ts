/**
 * Tab panels (tab-panels.ts): a documentation page that writes one panel per platform and
 * hides the others until their tab is clicked says all of them; a panel without prose or
 * code (a card of links, a script's placeholder) stays hidden. Pages written for the test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToMarkdown } from '../../src/markdown/index.js';

const panel = (id: string, hidden: boolean, inner: string) =>
  `<section id="${id}" role="tabpanel"${hidden ? ' aria-hidden="true" hidden="hidden"' : ''}>${inner}</section>`;

const page = (
  third: string,
) => `<!doctype html><html><head><title>Install the tools</title></head><body>
  <header><nav><a href="/">Docs</a></nav></header>
  <main><h1>Install the tools</h1>
    <p>The command-line tools run the functions on your own machine, so that you can test them before you deploy them to the cloud.</p>
    <div role="tablist">
      <button role="tab" aria-controls="tab-windows" aria-selected="true">Windows</button>
      <button role="tab" aria-controls="tab-macos">macOS</button>
      <button role="tab" aria-controls="tab-linux">Linux</button>
    </div>
    ${panel('tab-windows', false, '<p>Download the installer for your version of Windows and run it; it adds the tools to your path, so that a new terminal finds them.</p>')}
    ${panel('tab-macos', true, '<p>The following steps use Homebrew to install the tools on macOS; install Homebrew first if it is not on your machine yet.</p><pre><code>brew tap example/tools\nbrew install example-tools@4</code></pre>')}
    ${panel('tab-linux', true, third)}
    <p>When the tools are installed, check their version with the command below and start your first project.</p>
  </main>
  <footer><p>Example Docs</p></footer></body></html>`;

const URL = 'https://docs.example.com/tools/install';

describe('tab panels', () => {
  it('says the hidden panels of a page’s tabs when they hold prose or code', () => {
    const md = htmlToMarkdown(
      page(
        '<p>The following steps use APT to install the tools on Ubuntu or Debian; other distributions are covered in the readme.</p>',
      ),
      URL,
    );
    assert.match(md, /Download the installer/);
    assert.match(md, /use Homebrew to install the tools/, md);
    assert.match(md, /brew install example-tools@4/);
    assert.match(md, /use APT to install the tools/);
  });

  it('leaves a hidden panel that a script fills or that holds only links hidden', () => {
    const md = htmlToMarkdown(page('<p>Loading…</p><a href="/linux">Linux guide</a>'), URL);
    assert.match(md, /use Homebrew to install the tools/);
    assert.doesNotMatch(md, /Loading…|Linux guide/, md);
  });
});
