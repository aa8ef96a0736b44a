/** The terminal log format (LOG_FORMAT=pretty, or auto on a TTY): pino's JSON as readable lines. */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { formatLogLine, prettyLogStream } from '../../src/cli/pretty-log.js';
import { loadConfig } from '../../src/config.js';

describe('the pretty log format', () => {
  it('writes a request as method, path, status and time, and other fields as key=value', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    const log = pino({ level: 'info' }, prettyLogStream(out, false));
    log.info(
      { req: { method: 'GET', url: '/api/account' }, statusCode: 200, responseTime: 3.1 },
      'request completed',
    );
    log.warn({ refunded: 2, note: 'two words' }, 'refunded abandoned reservations');
    await new Promise((resolve) => setImmediate(resolve));
    const lines = text.trim().split('\n');
    assert.match(lines[0] ?? '', /^\d\d:\d\d:\d\d\.\d{3} INFO {2}GET \/api\/account 200 3\.1 ms$/);
    assert.match(
      lines[1] ?? '',
      /^\d\d:\d\d:\d\d\.\d{3} WARN {2}refunded abandoned reservations refunded=2 note="two words"$/,
    );
    assert.ok(!text.includes('{'), 'no JSON left');
  });

  it('passes a line that is not JSON through unchanged', () => {
    assert.equal(formatLogLine('plain text', false), 'plain text');
  });

  it('LOG_FORMAT takes auto, json or pretty, and defaults to auto', () => {
    assert.equal(loadConfig({}).logFormat, 'auto');
    assert.equal(loadConfig({ LOG_FORMAT: 'JSON' }).logFormat, 'json');
    assert.throws(
      () => loadConfig({ LOG_FORMAT: 'xml' }),
      /LOG_FORMAT must be auto, json or pretty/,
    );
  });
});
