import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { signWebhook, verifyWebhook } from '../../../src/jobs/webhooks/signature.js';

const secret = 'whsec_Zm9vYmFy-ünïcode';

test('the signature is sha256= and the hex HMAC of "<timestamp>.<body>" keyed with the UTF-8 secret', () => {
  const body = Buffer.from('<html>hé</html>');
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.concat([Buffer.from('1700000000.'), body]))
    .digest('hex');
  assert.equal(signWebhook(secret, 1700000000, body), `sha256=${expected}`);
});

test('a fixed vector computed with openssl matches', () => {
  // printf '42.hello' | openssl dgst -sha256 -hmac key
  assert.equal(
    signWebhook('key', 42, Buffer.from('hello')),
    'sha256=31e36c7e4eae5951f82aedfbfe720469e6418070434e048f1d1a846e4bbca7c6',
  );
});

test('binary bodies are signed as raw bytes, not as text', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00]);
  const asText = Buffer.from(png.toString('utf8'), 'utf8');
  assert.notEqual(signWebhook(secret, 1, png), signWebhook(secret, 1, asText));
  assert.ok(verifyWebhook(secret, '1', png, signWebhook(secret, 1, png)));
});

test('verification refuses another secret, another timestamp or a changed body', () => {
  const body = Buffer.from('{"error":"x"}');
  const signature = signWebhook(secret, 100, body);
  assert.ok(verifyWebhook(secret, 100, body, signature));
  assert.equal(verifyWebhook(`${secret}x`, 100, body, signature), false);
  assert.equal(verifyWebhook(secret, 101, body, signature), false);
  assert.equal(verifyWebhook(secret, 100, Buffer.from('{"error":"y"}'), signature), false);
  assert.equal(verifyWebhook(secret, 'abc', body, signature), false);
  assert.equal(verifyWebhook(secret, 100, body, 'sha256=00'), false);
});
