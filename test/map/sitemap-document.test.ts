/** One sitemap document read into its entries (sitemap-document.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { MAX_SITEMAP_ENTRIES, readSitemap } from '../../src/map/sitemap-document.js';

const MAX = 1024 * 1024;
const read = (text: string | Buffer, type: string | null = 'application/xml') =>
  readSitemap(Buffer.isBuffer(text) ? text : Buffer.from(text), type, { maxBytes: MAX });

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>https://e.com/a?x=1&amp;y=2</loc><lastmod>2024-01-01</lastmod><image:image><image:loc>https://e.com/i.png</image:loc></image:image></url>
  <url><loc> https://e.com/b </loc></url>
  <url><loc><![CDATA[https://e.com/c]]></loc></url>
</urlset>`;

describe('readSitemap', () => {
  it('lists the pages of a urlset, entities decoded, extensions ignored', async () => {
    assert.deepEqual(await read(URLSET), {
      kind: 'urlset',
      urls: ['https://e.com/a?x=1&y=2', 'https://e.com/b', 'https://e.com/c'],
    });
  });

  it('lists the sitemaps of an index', async () => {
    const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://e.com/s1.xml</loc></sitemap><sitemap><loc>https://e.com/s2.xml.gz</loc></sitemap></sitemapindex>`;
    assert.deepEqual(await read(index), {
      kind: 'index',
      sitemaps: ['https://e.com/s1.xml', 'https://e.com/s2.xml.gz'],
    });
  });

  it('inflates a gzipped sitemap file', async () => {
    assert.equal(
      ((await read(gzipSync(URLSET), 'application/gzip')) as { urls: string[] }).urls.length,
      3,
    );
  });

  it('refuses to inflate past the bound', async () => {
    const huge = gzipSync(
      `<urlset>${'<url><loc>https://e.com/x</loc></url>'.repeat(50_000)}</urlset>`,
    );
    await assert.rejects(readSitemap(huge, null, { maxBytes: 64 * 1024 }), /exceeds/);
  });

  it('reads the protocol’s plain-text form', async () => {
    assert.deepEqual(
      await read('https://e.com/1\nhttps://e.com/2\r\n\nnot a url\n', 'text/plain'),
      {
        kind: 'urlset',
        urls: ['https://e.com/1', 'https://e.com/2'],
      },
    );
  });

  it('lists nothing for an HTML page served as a sitemap', async () => {
    assert.deepEqual(
      await read(
        '<!doctype html><html><body><a href="https://e.com/">x</a></body></html>',
        'text/html',
      ),
      {
        kind: 'none',
      },
    );
  });

  it('keeps the entries before a break in a truncated document', async () => {
    const cut =
      '<urlset><url><loc>https://e.com/a</loc></url><url><loc>https://e.com/b</loc></url><url><lo';
    const doc = await read(cut);
    assert.equal(doc.kind, 'urlset');
    assert.deepEqual((doc as { urls: string[] }).urls.slice(0, 2), [
      'https://e.com/a',
      'https://e.com/b',
    ]);
  });

  it('does not expand entities a document defines', async () => {
    const bomb = `<!DOCTYPE urlset [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<urlset><url><loc>https://e.com/&b;</loc></url></urlset>`;
    const doc = await read(bomb);
    assert.ok(!JSON.stringify(doc).includes('aaaaaaaaaa'));
  });

  it('reads a sitemap whose namespace has a prefix, not its extensions’ locs', async () => {
    const prefixed = `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
<sm:url><sm:loc>https://e.com/a</sm:loc><image:image><image:loc>https://e.com/i.png</image:loc></image:image></sm:url></sm:urlset>`;
    assert.deepEqual(await read(prefixed), { kind: 'urlset', urls: ['https://e.com/a'] });
  });

  it('reads no more than the protocol’s 50,000 entries from one document', async () => {
    const over = `<urlset>${'<url><loc>https://e.com/x</loc></url>'.repeat(MAX_SITEMAP_ENTRIES + 10)}</urlset>`;
    const doc = (await read(over)) as { urls: string[] };
    assert.equal(doc.urls.length, MAX_SITEMAP_ENTRIES);
  });

  it('reads no more sitemaps from an index than it is asked for', async () => {
    const index = `<sitemapindex>${Array.from({ length: 1000 }, (_, i) => `<sitemap><loc>https://e.com/s${i}.xml</loc></sitemap>`).join('')}</sitemapindex>`;
    const doc = await readSitemap(Buffer.from(index), 'application/xml', {
      maxBytes: MAX,
      maxIndexEntries: 3,
    });
    assert.deepEqual(doc, {
      kind: 'index',
      sitemaps: ['https://e.com/s0.xml', 'https://e.com/s1.xml', 'https://e.com/s2.xml'],
    });
  });

  it('lets the event loop run while it reads a 50,000-entry sitemap', async () => {
    const big = `<urlset>${Array.from({ length: 50_000 }, (_, i) => `<url><loc>https://e.com/p${i}</loc></url>`).join('')}</urlset>`;
    let turns = 0;
    let reading = true;
    const count = () => {
      turns += 1;
      if (reading) setImmediate(count);
    };
    setImmediate(count);
    const doc = (await readSitemap(Buffer.from(big), 'application/xml', {
      maxBytes: 10 * 1024 * 1024,
    })) as { urls: string[] };
    reading = false;
    assert.equal(doc.urls.length, 50_000);
    // One synchronous parse would let the loop turn once at most, after it.
    assert.ok(turns >= 3, `the event loop turned ${turns} times during the read`);
  });

  it('keeps a character whole where the read cuts the bytes', async () => {
    const start = '<urlset><url><loc>https://e.com/';
    // The two bytes of é on both sides of the first 16 KiB.
    const pad = 'a'.repeat(16 * 1024 - Buffer.byteLength(start) - 1);
    const doc = (await read(`${start}${pad}é</loc></url></urlset>`)) as { urls: string[] };
    assert.deepEqual(doc.urls, [`https://e.com/${pad}é`]);
  });
});
