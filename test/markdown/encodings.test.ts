/**
 * Pages in legacy encodings come out as correct UTF-8 Markdown (issue 14, point 3): small
 * pages written for the test, encoded with iconv-lite, served from a loopback server and
 * fetched by the real fetch engine, whose bytes are decoded by the page's own declaration
 * (Content-Type header, BOM, `<meta>`) or, undeclared, by sniffing; then converted.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { htmlToMarkdown } from '../../src/markdown/index.js';
import { createFetchEngine, type FetchEngine } from '../../src/scrape/engines/fetch-engine.js';
import { decodeBody } from '../../src/scrape/net/charset.js';
import { createHttpClient } from '../../src/scrape/net/http-client.js';
import { fetchPlan } from '../scrape/engines/fetch-plan.js';

/** Prose in each encoding's script: long enough to be the main content, and to sniff. */
const TEXTS: Record<string, string> = {
  'windows-1252':
    'Le café “déjà vu” – une façade naïve, un résumé. Où est la bibliothèque? Ça coûte 5 €, señor; Größe über alles.',
  'iso-8859-2':
    'Zażółć gęślą jaźń. Pchnąć w tę łódź jeża lub ośm skrzyń fig. Łódź to piękne miasto, które leży w centrum kraju.',
  'iso-8859-5':
    'Съешь же ещё этих мягких французских булок, да выпей чаю. Москва является столицей России и крупным городом.',
  'iso-8859-7':
    'Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Η Αθήνα είναι η πρωτεύουσα της Ελλάδας και μια από τις αρχαιότερες πόλεις.',
  shift_jis:
    '日本語のテキストです。東京は日本の首都であり、多くの人々が住んでいます。桜の季節には公園が花見客でにぎわいます。',
  gb18030:
    '这是一个中文网页的例子，北京是中国的首都，有很多人住在那里。长城是世界上最著名的建筑之一，每年吸引大量游客。',
  'koi8-r':
    'Это пример русского текста. Москва является столицей России, и там живёт много людей. Зимой в городе идёт снег.',
};

type Declared = 'header' | 'meta' | 'sniffed';
interface Case {
  encoding: string;
  declared: Declared;
}

/** Undeclared pages are sniffed only for the encodings a detector can tell apart reliably. */
const CASES: Case[] = [
  ...Object.keys(TEXTS).flatMap((encoding) =>
    (['header', 'meta'] as Declared[]).map((declared) => ({ encoding, declared })),
  ),
  ...['windows-1252', 'shift_jis', 'gb18030', 'koi8-r'].map((encoding) => ({
    encoding,
    declared: 'sniffed' as Declared,
  })),
];

function pageBytes(encoding: string, declared: Declared): Buffer {
  const meta = declared === 'meta' ? `<meta charset="${encoding}">` : '';
  const text = TEXTS[encoding] ?? '';
  const html = `<!doctype html><html><head>${meta}<title>Page</title></head><body>
    <nav><a href="/">Home</a></nav><article>${`<p>${text}</p>`.repeat(4)}</article></body></html>`;
  return iconv.encode(html, encoding);
}

let server: Server;
let origin = '';
let engine: FetchEngine;
before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const encoding = url.searchParams.get('encoding') ?? '';
    const declared = url.searchParams.get('declared') as Declared;
    if (url.pathname === '/bom') {
      // a UTF-8 BOM outranks a header that says otherwise
      const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), pageBytes('utf-8', 'sniffed')]);
      res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' }).end(body);
      return;
    }
    const type = declared === 'header' ? `text/html; charset=${encoding}` : 'text/html';
    res.writeHead(200, { 'content-type': type }).end(pageBytes(encoding, declared));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  engine = createFetchEngine({
    http: createHttpClient({ allowPrivateNetworks: true, maxBodyBytes: 1024 * 1024 }),
  });
});
after(async () => {
  await engine.close();
  await new Promise((done) => server.close(done));
});

TEXTS['utf-8'] = 'Grüße aus Köln – naïve café, 東京, Москва: UTF-8 with a byte order mark.';

describe('legacy encodings come out as UTF-8 Markdown', () => {
  for (const { encoding, declared } of CASES) {
    it(`${encoding}, declared by ${declared}`, async () => {
      const url = `${origin}/page?encoding=${encoding}&declared=${declared}`;
      const page = await engine.fetch(fetchPlan(url));
      const markdown = htmlToMarkdown(page.html, url);
      assert.ok(markdown.includes(TEXTS[encoding] ?? '?'), markdown);
      assert.doesNotMatch(markdown, /Home|\uFFFD/);
    });
  }

  it('a UTF-8 BOM outranks the header', async () => {
    const page = await engine.fetch(fetchPlan(`${origin}/bom`));
    assert.ok(htmlToMarkdown(page.html, origin).includes(TEXTS['utf-8'] ?? '?'));
  });

  it('names what decided, and the WHATWG encoding', () => {
    const sniffed = decodeBody(pageBytes('koi8-r', 'sniffed'), 'text/html');
    assert.deepEqual([sniffed.charset, sniffed.source], ['koi8-r', 'sniffed']);
    const meta = decodeBody(pageBytes('iso-8859-7', 'meta'), 'text/html');
    assert.deepEqual([meta.charset, meta.source], ['iso-8859-7', 'meta']);
    const header = decodeBody(pageBytes('gb18030', 'header'), 'text/html; charset=GB18030');
    assert.deepEqual([header.charset, header.source], ['gb18030', 'header']);
    // an ISO-8859-1 label means windows-1252 by the WHATWG table
    const latin1 = decodeBody(
      pageBytes('windows-1252', 'sniffed'),
      'text/html; charset=iso-8859-1',
    );
    assert.equal(latin1.charset, 'windows-1252');
    assert.ok(latin1.text.includes(TEXTS['windows-1252'] ?? '?'));
  });
});
