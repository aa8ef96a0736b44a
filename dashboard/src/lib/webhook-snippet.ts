/**
 * Copy-ready code that verifies a webhook delivery's signature (contract 22): HMAC-SHA256
 * of `<X-Webhook-Timestamp>.<raw body>` keyed with the account's webhook secret, compared in
 * constant time, refusing deliveries older than five minutes (replays).
 * test/dashboard/webhook-snippet.test.ts runs the Node one against the service's signer.
 */
export const NODE_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * rawBody: the request body exactly as received (a Buffer, before any JSON parsing);
 * headers: the request's headers, names in lower case.
 */
export function verifyPagegrabWebhook(rawBody, headers, secret = process.env.PAGEGRAB_WEBHOOK_SECRET) {
  const timestamp = headers['x-webhook-timestamp'];
  const signature = headers['x-webhook-signature'] ?? '';
  if (!/^\\d+$/.test(timestamp ?? '')) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false; // a replay
  const expected = 'sha256=' +
    createHmac('sha256', secret).update(timestamp + '.').update(rawBody).digest('hex');
  return signature.length === expected.length &&
    timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}
`;

export const PYTHON_SNIPPET = `import hashlib, hmac, os, time

def verify_pagegrab_webhook(raw_body: bytes, headers, secret=os.environ["PAGEGRAB_WEBHOOK_SECRET"]):
    timestamp = headers.get("X-Webhook-Timestamp", "")
    signature = headers.get("X-Webhook-Signature", "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > 300:
        return False
    mac = hmac.new(secret.encode(), timestamp.encode() + b"." + raw_body, hashlib.sha256)
    return hmac.compare_digest(signature, "sha256=" + mac.hexdigest())
`;
