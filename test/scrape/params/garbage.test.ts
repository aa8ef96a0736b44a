import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../../../src/errors.js';
import {
  normalizeWorkflowConfig,
  parseScraperRequest,
  SCRAPER_PARAMETERS,
  savedConfigFromWorkflow,
} from '../../../src/scrape/params/index.js';

/** mulberry32: a seeded generator, so a failure can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ATOMS: unknown[] = [
  '',
  ' ',
  'true',
  'FALSE',
  '1',
  '0',
  'yes',
  '-1',
  '320',
  '3841',
  '1e3',
  'NaN',
  '60000',
  'none',
  'image, font',
  'image,none',
  'https://example.com/',
  'http://[::1]:80/',
  'ftp://x',
  'javascript:0',
  'http://',
  '//x',
  'de',
  'DEU',
  'residential',
  'isp',
  '[]',
  '{}',
  '[{"delay":1}]',
  '[{"fill":{}}]',
  '[{"wait":"#a","click":"b"}]',
  '{"render":true}',
  '{"api_key":1}',
  '{"url":"https://x.test"}',
  '{"timeout":"5"}',
  '[1,2',
  'null',
  '__proto__',
  'constructor',
  '\u0000',
  '\ud800',
  'x'.repeat(5000),
  0,
  1,
  2.5,
  -0,
  Number.POSITIVE_INFINITY,
  '[{"delay":1e400}]',
  Number.NaN,
  true,
  false,
  null,
  undefined,
  [],
  ['a', 'b'],
  {},
  { a: 1 },
  [{ delay: 1 }],
  { toString: 'x' },
];
const NAMES = [...SCRAPER_PARAMETERS, 'apiKey', 'x', '__proto__', 'constructor', 'toString', ''];

function garbage(next: () => number): Record<string, unknown> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const object: Record<string, unknown> = {};
  const size = Math.floor(next() * 6);
  for (let i = 0; i < size; i++) {
    const name = next() < 0.85 ? pick(SCRAPER_PARAMETERS) : pick(NAMES);
    const value = next() < 0.1 ? JSON.stringify({ [pick(NAMES)]: pick(ATOMS) }) : pick(ATOMS);
    Object.defineProperty(object, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  if (next() < 0.5) object.url = 'https://example.com/';
  return object;
}

function assertOnly400(run: () => unknown, input: unknown, seed: number): boolean {
  try {
    run();
    return true;
  } catch (error) {
    assert.ok(isAppError(error), `seed ${seed}: ${String(error)} for ${JSON.stringify(input)}`);
    assert.equal(error.status, 400, `seed ${seed}: ${error.message}`);
    return false;
  }
}

describe('garbage never escapes as anything but a 400 AppError', () => {
  it('parseScraperRequest, 500 random queries (some with a random saved config)', () => {
    let accepted = 0;
    for (let seed = 1; seed <= 500; seed++) {
      const next = random(seed);
      const query = garbage(next);
      const savedInput = next() < 0.3 ? garbage(next) : null;
      const ok = assertOnly400(
        () => parseScraperRequest(query, savedInput && savedConfigFromWorkflow(savedInput)),
        query,
        seed,
      );
      if (ok) accepted++;
    }
    // Both outcomes must occur, or the generator is not exercising the parser.
    assert.ok(accepted > 10 && accepted < 490, `accepted ${accepted} of 500`);
  });

  it('normalizeWorkflowConfig, 500 random configs', () => {
    for (let seed = 1001; seed <= 1500; seed++) {
      const input = garbage(random(seed));
      assertOnly400(() => normalizeWorkflowConfig(input), input, seed);
    }
  });
});
