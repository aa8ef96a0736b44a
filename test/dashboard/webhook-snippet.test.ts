/**
 * The verification code the Keys view offers for copying (dashboard/src/lib/webhook-snippet.ts)
 * accepts what the service signs (jobs/webhooks/signature.ts) and refuses a changed body, a
 * wrong secret and an old timestamp: it is run here as a receiver would paste it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { NODE_SNIPPET } from '../../dashboard/src/lib/webhook-snippet.js';
import { signWebhook } from '../../src/jobs/webhooks/signature.js';

const dir = mkdtempSync(join(tmpdir(), 'pagegrab-snippet-'));
after(() => rmSync(dir, { recursive: true, force: true }));

type Verify = (body: Buffer, headers: Record<string, string>, secret: string) => boolean;

async function pasted(): Promise<Verify> {
  const file = join(dir, 'verify.mjs');
  writeFileSync(file, NODE_SNIPPET);
  const module = (await import(pathToFileURL(file).href)) as { verifyPagegrabWebhook: Verify };
  return module.verifyPagegrabWebhook;
}

describe('the webhook verification snippet', () => {
  it('accepts a delivery signed by the service and refuses any change', async () => {
    const verify = await pasted();
    const secret = 'whsec_test-secret';
    const body = Buffer.from('<html><body>ok</body></html>');
    const now = Math.floor(Date.now() / 1000);
    const headers = (t: number, b: Buffer = body, s = secret) => ({
      'x-webhook-timestamp': String(t),
      'x-webhook-signature': signWebhook(s, t, b),
    });
    assert.equal(verify(body, headers(now), secret), true);
    assert.equal(verify(Buffer.from('<html>changed</html>'), headers(now), secret), false);
    assert.equal(verify(body, headers(now, body, 'whsec_other'), secret), false);
    assert.equal(verify(body, headers(now - 3600), secret), false, 'an hour old: a replay');
    assert.equal(verify(body, { 'x-webhook-timestamp': 'soon' }, secret), false);
  });
});
