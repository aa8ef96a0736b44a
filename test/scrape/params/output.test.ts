import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { engineOf, outputTypeOf, parseScraperRequest } from '../../../src/scrape/params/index.js';

const parse = (query: Record<string, string>) =>
  parseScraperRequest({ url: 'https://example.com/', ...query });

describe('outputTypeOf and engineOf', () => {
  const cases: [Record<string, string>, string, string][] = [
    [{}, 'html', 'fetch'],
    [{ render: 'true' }, 'html', 'browser'],
    [{ markdown: 'true' }, 'markdown', 'fetch'],
    [{ markdown: 'true', render: '1' }, 'markdown', 'browser'],
    [{ screenshot: 'true', render: '1' }, 'screenshot', 'browser'],
    [{ screenshot_full_page: 'true', render: '1' }, 'screenshot', 'browser'],
    [{ screenshot: '1', screenshot_full_page: '1', render: '1' }, 'screenshot', 'browser'],
  ];
  for (const [query, output, engine] of cases) {
    it(`${JSON.stringify(query)} is ${output} by ${engine}`, () => {
      const options = parse(query);
      assert.equal(outputTypeOf(options), output);
      assert.equal(engineOf(options), engine);
    });
  }
});
