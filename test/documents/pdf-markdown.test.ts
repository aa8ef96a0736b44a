/**
 * PDF → Markdown on real PDFs written by the test (test/helpers/document-files.ts), read by
 * the real pdfjs: headings, paragraphs, hyphenation, lists, links, tables, running headers
 * and footers, metadata, the page cap, and encrypted or damaged files.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pdfToMarkdown } from '../../src/documents/pdf-markdown.js';
import { isAppError } from '../../src/errors.js';
import { makePdf, type PdfText } from '../helpers/document-files.js';

const running = (n: number): PdfText[] => [
  { text: 'ACME Widget Manual', x: 72, y: 760, size: 9 },
  { text: `Page ${n}`, x: 290, y: 30, size: 9 },
];

const manual = makePdf(
  [
    [
      ...running(1),
      { text: 'Installing the Widget', x: 72, y: 680, size: 20, bold: true },
      { text: 'The widget is installed in three steps that every admin-', x: 72, y: 650 },
      { text: 'istrator should follow before the first start of the', x: 72, y: 636 },
      { text: 'service on a new machine.', x: 72, y: 622 },
      { text: 'Requirements', x: 72, y: 590, size: 14, bold: true },
      { text: '• a running database', x: 72, y: 570 },
      { text: '• two free ports', x: 72, y: 556 },
      { text: 'See the', x: 72, y: 530 },
      { text: 'full guide', x: 115, y: 530, link: 'https://example.com/guide' },
      { text: 'Name', x: 72, y: 480 },
      { text: 'Port', x: 250, y: 480 },
      { text: 'Default', x: 400, y: 480 },
      { text: 'web', x: 72, y: 466 },
      { text: '8080', x: 250, y: 466 },
      { text: 'yes', x: 400, y: 466 },
      { text: 'admin', x: 72, y: 452 },
      { text: '9090', x: 250, y: 452 },
      { text: 'no', x: 400, y: 452 },
    ],
    [...running(2), { text: 'The second page tells of upgrades.', x: 72, y: 680 }],
    [...running(3), { text: 'The third page tells of backups.', x: 72, y: 680 }],
  ],
  { title: 'Widget Manual', author: 'ACME Docs Team' },
);

test('a PDF becomes Markdown: headings by size, joined paragraphs, lists, links and tables', async () => {
  const { markdown } = await pdfToMarkdown(manual, 100);
  assert.match(markdown, /^# Installing the Widget$/m);
  assert.match(markdown, /^## Requirements$/m);
  assert.match(
    markdown,
    /^The widget is installed in three steps that every administrator should follow before the first start of the service on a new machine\.$/m,
  );
  assert.match(markdown, /^- a running database\n- two free ports$/m);
  assert.match(markdown, /See the \[full guide\]\(https:\/\/example\.com\/guide\)/);
  assert.match(
    markdown,
    /^\| Name \| Port \| Default \|\n\| --- \| --- \| --- \|\n\| web \| 8080 \| yes \|\n\| admin \| 9090 \| no \|$/m,
  );
  assert.match(markdown, /The third page tells of backups\./);
});

test('headers and footers repeated on every page are left out', async () => {
  const { markdown } = await pdfToMarkdown(manual, 100);
  assert.doesNotMatch(markdown, /ACME Widget Manual/);
  assert.doesNotMatch(markdown, /Page \d/);
});

test("the metadata has the PDF's title, author and page count", async () => {
  const { metadata } = await pdfToMarkdown(manual, 100);
  assert.deepEqual(metadata, { numPages: 3, title: 'Widget Manual', author: 'ACME Docs Team' });
});

test('pages past the cap are not converted', async () => {
  const { markdown, metadata } = await pdfToMarkdown(manual, 1);
  assert.match(markdown, /Installing the Widget/);
  assert.doesNotMatch(markdown, /second page/);
  assert.equal(metadata.numPages, 3);
});

async function failure(bytes: Buffer): Promise<unknown> {
  return pdfToMarkdown(bytes, 10).then(
    () => assert.fail('converted'),
    (error: unknown) => error,
  );
}

test('an encrypted PDF is a clear 422', async () => {
  const error = await failure(makePdf([[{ text: 'secret', x: 72, y: 700 }]], { encrypted: true }));
  assert.ok(isAppError(error));
  assert.equal(error.status, 422);
  assert.equal(error.message, 'The PDF cannot be read: it is encrypted');
});

test('a damaged PDF is a clear 422', async () => {
  const error = await failure(Buffer.from('%PDF-1.4\nthis is not a PDF at all\n'));
  assert.ok(isAppError(error));
  assert.equal(error.message, 'The PDF cannot be read: it is damaged or not a PDF');
});
