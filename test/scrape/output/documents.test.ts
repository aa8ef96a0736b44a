/**
 * Pages that are not HTML through both doors of a real service, from a loopback site: PDFs,
 * DOCX, JSON and CSV become Markdown; an image keeps its bytes and type for html and is a
 * 422 naming its type for markdown, refunded; an encrypted PDF is a 422; the door's
 * `parsers` bounds a PDF's pages and its metadata has the PDF's title, author and pages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeDocx, makePdf, type PdfText } from '../../helpers/document-files.js';
import { type FixtureSite, startFixtureSite } from '../../helpers/fixture-site.js';
import { startService, type TestService } from '../../helpers/service.js';

const page = (n: number, text: string): PdfText[] => [
  { text: 'Quarterly Report', x: 72, y: 760, size: 9 },
  { text: `Page ${n}`, x: 290, y: 30, size: 9 },
  { text, x: 72, y: 650 },
];
const REPORT = makePdf(
  [
    [
      { text: 'Sales Overview', x: 72, y: 690, size: 22 },
      ...page(1, 'Sales grew in every region.'),
    ],
    page(2, 'Costs fell in the second half.'),
    page(3, 'The outlook is steady.'),
  ],
  { title: 'Quarterly Report', author: 'Finance' },
);
const LOCKED = makePdf([[{ text: 'secret', x: 72, y: 700 }]], { encrypted: true });
const DOCX = makeDocx(
  '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Release Notes</w:t></w:r></w:p>' +
    '<w:p><w:r><w:t xml:space="preserve">This release is </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>faster</w:t></w:r><w:r><w:t>.</w:t></w:r></w:p>',
);
// a PNG's signature and a few bytes of its header: NULs and high bytes, never text
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489',
  'hex',
);

let site: FixtureSite;
let service: TestService;

before(async () => {
  site = await startFixtureSite();
  const serve = (path: string, type: string, body: Buffer | string) =>
    site.route(path, (_req, res) => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    });
  serve('/report.pdf', 'application/pdf', REPORT);
  serve('/download', 'application/octet-stream', REPORT);
  serve('/locked.pdf', 'application/pdf', LOCKED);
  serve(
    '/notes.docx',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    DOCX,
  );
  serve('/photo.png', 'image/png', PNG);
  serve('/data.json', 'application/json', '{"name":"<b>widget</b>","sizes":[1,2]}');
  serve('/prices.csv', 'text/csv; charset=utf-8', 'item,price\n"Widget, large",10\nGadget,5\n');
  service = await startService({ credits: 100, env: { PDF_MAX_PAGES: '2' } });
});
after(async () => {
  await service?.close();
  await site?.close();
});

async function native(path: string, markdown = true) {
  const query = `url=${encodeURIComponent(site.url(path))}${markdown ? '&markdown=true' : ''}`;
  const response = await fetch(`${service.baseUrl}/api/scraper?api_key=${service.apiKey}&${query}`);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

async function credits(): Promise<number> {
  const response = await fetch(`${service.baseUrl}/api/account?api_key=${service.apiKey}`);
  return ((await response.json()) as { credits: number }).credits;
}

describe('the native door', () => {
  it('converts a PDF to Markdown, never its raw bytes, up to PDF_MAX_PAGES', async () => {
    const { status, type, body } = await native('/report.pdf');
    assert.equal(status, 200);
    assert.equal(type, 'text/markdown; charset=utf-8');
    const markdown = body.toString('utf8');
    assert.match(markdown, /^# Sales Overview$/m);
    assert.match(markdown, /Costs fell in the second half\./);
    assert.doesNotMatch(markdown, /%PDF|The outlook|Quarterly Report/);
  });

  it('recognises a PDF served as application/octet-stream by its bytes', async () => {
    const { status, body } = await native('/download');
    assert.equal(status, 200);
    const markdown = body.toString('utf8');
    assert.match(markdown, /^# Sales Overview$/m);
    assert.doesNotMatch(markdown, /%PDF|\bTj\b/);
  });

  it('converts a DOCX to Markdown', async () => {
    const { status, body } = await native('/notes.docx');
    assert.equal(status, 200);
    assert.match(body.toString('utf8'), /^# Release Notes\n\nThis release is \*\*faster\*\*\.$/m);
  });

  it('quotes JSON in a fenced block instead of parsing it as HTML', async () => {
    const { body } = await native('/data.json');
    assert.equal(
      body.toString('utf8'),
      '```json\n{\n  "name": "<b>widget</b>",\n  "sizes": [\n    1,\n    2\n  ]\n}\n```\n',
    );
  });

  it('turns CSV into a table', async () => {
    const { body } = await native('/prices.csv');
    assert.equal(
      body.toString('utf8'),
      '| item | price |\n| --- | --- |\n| Widget, large | 10 |\n| Gadget | 5 |\n',
    );
  });

  it('answers html of an image with its own bytes and type', async () => {
    const { status, type, body } = await native('/photo.png', false);
    assert.equal(status, 200);
    assert.equal(type, 'image/png');
    assert.deepEqual(body, PNG);
  });

  it('refuses markdown of an image with a 422 naming its type, not charged', async () => {
    const before = await credits();
    const { status, body } = await native('/photo.png');
    assert.equal(status, 422);
    assert.deepEqual(JSON.parse(body.toString('utf8')), {
      error: 'Cannot convert image/png to Markdown',
    });
    assert.equal(await credits(), before);
  });

  it('refuses an encrypted PDF with a clear 422', async () => {
    const { status, body } = await native('/locked.pdf');
    assert.equal(status, 422);
    assert.deepEqual(JSON.parse(body.toString('utf8')), {
      error: 'The PDF cannot be read: it is encrypted',
    });
  });
});

describe('the Firecrawl door', () => {
  async function door(path: string, extra: Record<string, unknown> = {}) {
    const response = await fetch(`${service.baseUrl}/v2/scrape`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: site.url(path), formats: ['markdown'], maxAge: 0, ...extra }),
    });
    return {
      status: response.status,
      body: (await response.json()) as {
        success: boolean;
        code?: string;
        error?: string;
        data?: { markdown?: string; metadata: Record<string, unknown> };
      },
    };
  }

  it("gives a PDF's Markdown with its title, author and page count", async () => {
    const { status, body } = await door('/report.pdf');
    assert.equal(status, 200);
    assert.match(body.data?.markdown ?? '', /^# Sales Overview$/m);
    assert.equal(body.data?.metadata.title, 'Quarterly Report');
    assert.equal(body.data?.metadata.author, 'Finance');
    assert.equal(body.data?.metadata.numPages, 3);
  });

  it('honours parsers: maxPages bounds the pages, [] converts none', async () => {
    const one = await door('/report.pdf', { parsers: [{ type: 'pdf', maxPages: 1 }] });
    assert.equal(one.status, 200);
    assert.match(one.body.data?.markdown ?? '', /Sales grew/);
    assert.doesNotMatch(one.body.data?.markdown ?? '', /Costs fell/);
    const none = await door('/report.pdf', { parsers: [] });
    assert.equal(none.status, 200);
    assert.equal(none.body.data?.markdown?.trim(), '');
  });

  it('refuses a parser it does not know', async () => {
    const { status } = await door('/report.pdf', { parsers: ['ocr-magic'] });
    assert.equal(status, 400);
  });

  it('answers markdown of an image with a 422 in its own envelope', async () => {
    const { status, body } = await door('/photo.png');
    assert.equal(status, 422);
    assert.equal(body.success, false);
    assert.equal(body.code, 'SCRAPE_UNSUPPORTED_FILE_ERROR');
    assert.equal(body.error, 'Cannot convert image/png to Markdown');
  });
});
