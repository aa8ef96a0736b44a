/** The sitemaps a robots.txt declares (robots-sitemaps.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_ROBOTS_CHARS, sitemapsOfRobots } from '../../src/map/robots-sitemaps.js';

const ROBOTS = 'https://e.com/robots.txt';

describe('sitemapsOfRobots', () => {
  it('lists the Sitemap: lines as absolute http(s) URLs, in order', () => {
    const text =
      'User-agent: *\nSitemap: /s1.xml\nSitemap: https://e.com/s2.xml\nSitemap: ftp://e.com/x\n';
    assert.deepEqual(sitemapsOfRobots(ROBOTS, text), [
      'https://e.com/s1.xml',
      'https://e.com/s2.xml',
    ]);
  });

  it('reads no further than the first 512 KiB, as Google does', () => {
    const padding = `# ${'x'.repeat(78)}\n`.repeat(Math.ceil(MAX_ROBOTS_CHARS / 80));
    const text = `Sitemap: https://e.com/early.xml\n${padding}Sitemap: https://e.com/late.xml\n`;
    assert.deepEqual(sitemapsOfRobots(ROBOTS, text), ['https://e.com/early.xml']);
  });
});
