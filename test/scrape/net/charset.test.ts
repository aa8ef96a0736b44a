import assert from 'node:assert/strict';
import { test } from 'node:test';
import iconv from 'iconv-lite';
import {
  charsetParam,
  decodeAs,
  decodeBody,
  metaCharset,
  resolveLabel,
} from '../../../src/scrape/net/charset.js';
import { CP1252_HIGH_BYTES, CP1252_HIGH_TEXT, SHIFT_JIS_TEXT } from '../../helpers/fixture-site.js';

const html = (head: string, body: Buffer) =>
  Buffer.concat([
    Buffer.from(`<html><head>${head}</head><body>`),
    body,
    Buffer.from('</body></html>'),
  ]);

test('windows-1252 maps 0x80 to € and 0x9F to Ÿ, and the undefined bytes to C1 controls', () => {
  assert.equal(decodeAs(Buffer.from([0x80]), 'windows-1252'), '€');
  assert.equal(decodeAs(Buffer.from([0x9f]), 'windows-1252'), 'Ÿ');
  assert.equal(decodeAs(CP1252_HIGH_BYTES, 'windows-1252'), CP1252_HIGH_TEXT);
  assert.equal(decodeAs(Buffer.from([0x81, 0x8d, 0xe9]), 'windows-1252'), '\u0081\u008dé');
});

test('labels resolve by the WHATWG table', () => {
  assert.equal(resolveLabel('ISO-8859-1'), 'windows-1252');
  assert.equal(resolveLabel('latin1'), 'windows-1252');
  assert.equal(resolveLabel('us-ascii'), 'windows-1252');
  assert.equal(resolveLabel('x-sjis'), 'shift_jis');
  assert.equal(resolveLabel('"utf8"'), 'utf-8');
  assert.equal(resolveLabel('gb2312'), 'gbk');
  assert.equal(resolveLabel('klingon'), null);
});

test('the Content-Type charset is honoured, quoted or not', () => {
  assert.equal(charsetParam('text/html; charset="Shift_JIS"'), 'Shift_JIS');
  assert.equal(charsetParam('text/html;charset=utf-8'), 'utf-8');
  assert.equal(charsetParam('text/html'), null);
  const decoded = decodeBody(html('', CP1252_HIGH_BYTES), 'text/html; charset=windows-1252');
  assert.equal(decoded.source, 'header');
  assert.ok(decoded.text.includes(CP1252_HIGH_TEXT));
});

test('a BOM wins over the header', () => {
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('café €')]);
  assert.deepEqual(decodeBody(bytes, 'text/html; charset=windows-1252'), {
    text: 'café €',
    charset: 'utf-8',
    source: 'bom',
  });
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('naïve', 'utf16le')]);
  assert.equal(decodeBody(le, null).text, 'naïve');
});

test('meta charset and meta http-equiv declare the charset of undeclared HTML', () => {
  const sjis = iconv.encode(`<p>${SHIFT_JIS_TEXT}</p>`, 'shift_jis');
  const viaCharset = decodeBody(html('<meta charset="shift_jis">', sjis), 'text/html');
  assert.equal(viaCharset.charset, 'shift_jis');
  assert.ok(viaCharset.text.includes(SHIFT_JIS_TEXT));
  const viaHttpEquiv = decodeBody(
    html(`<META HTTP-EQUIV='Content-Type' CONTENT='text/html; charset=Shift_JIS'>`, sjis),
    'text/html',
  );
  assert.equal(viaHttpEquiv.source, 'meta');
  assert.ok(viaHttpEquiv.text.includes(SHIFT_JIS_TEXT));
});

test('a meta tag inside a comment is ignored, and a meta claiming UTF-16 means UTF-8', () => {
  assert.equal(
    metaCharset(Buffer.from('<!-- <meta charset="koi8-r"> --><meta charset=utf-8>')),
    'utf-8',
  );
  const decoded = decodeBody(Buffer.from('<meta charset="utf-16"><p>é</p>'), 'text/html');
  assert.equal(decoded.charset, 'utf-8');
  assert.ok(decoded.text.includes('é'));
});

test('undeclared bytes are UTF-8 when valid, windows-1252 otherwise', () => {
  assert.deepEqual(decodeBody(Buffer.from('<p>café</p>'), 'text/html'), {
    text: '<p>café</p>',
    charset: 'utf-8',
    source: 'sniffed',
  });
  const legacy = decodeBody(html('', CP1252_HIGH_BYTES), 'text/html');
  assert.equal(legacy.charset, 'windows-1252');
  assert.ok(legacy.text.includes(CP1252_HIGH_TEXT));
});

test('JSON is UTF-8 and other text is sniffed the same way', () => {
  assert.equal(decodeBody(Buffer.from('{"a":"é"}'), 'application/json').text, '{"a":"é"}');
  assert.equal(decodeBody(Buffer.from([0x80]), 'text/plain').text, '€');
  assert.equal(decodeBody(Buffer.from('ok'), 'application/problem+json').source, 'json');
});

test('encodings iconv-lite lacks still decode', () => {
  assert.equal(decodeAs(Buffer.from('1b244224221b2842', 'hex'), 'iso-2022-jp'), 'あ');
  assert.equal(decodeAs(iconv.encode('Привет', 'maccyrillic'), 'x-mac-cyrillic'), 'Привет');
});
