/** Text bodies as Markdown (text-markdown.ts): CSV through csv-parse, JSON and XML fenced. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textToMarkdown } from '../../src/documents/text-markdown.js';

test('CSV: quoted delimiters, doubled quotes, a BOM and mixed line ends make one table', () => {
  const csv = '\uFEFFname,note\r\n"Widget, large","said ""hi"""\nGadget,"two\nlines"\r\n';
  assert.equal(
    textToMarkdown('csv', csv),
    '| name | note |\n| --- | --- |\n| Widget, large | said "hi" |\n| Gadget | two<br>lines |\n',
  );
});

test('CSV: tab-separated rows and a pipe in a cell', () => {
  assert.equal(
    textToMarkdown('csv', 'a\tb\n1|2\t3\n'),
    '| a | b |\n| --- | --- |\n| 1\\|2 | 3 |\n',
  );
});

test('CSV whose rows disagree is kept as text in a fence, not a broken table', () => {
  assert.equal(textToMarkdown('csv', 'a,b\n1\n'), '```csv\na,b\n1\n```\n');
});

test('JSON is pretty-printed in a fence longer than any backtick run inside', () => {
  assert.equal(textToMarkdown('json', '{"a":"```"}'), '````json\n{\n  "a": "```"\n}\n````\n');
});
