/**
 * Webhook signing (contract 22): `X-Webhook-Signature: sha256=<hex>` where hex is the
 * HMAC-SHA256 of `<timestamp>.<body>`, keyed with the account's webhook secret as UTF-8 bytes
 * (the string exactly as the command line prints it) over the raw body bytes. Signing the
 * timestamp with the body lets receivers refuse replays of old deliveries.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The `X-Webhook-Signature` value for this timestamp (unix seconds) and body. */
export function signWebhook(secret: string, timestamp: number, body: Uint8Array): string {
  const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  hmac.update(`${timestamp}.`, 'utf8');
  hmac.update(body);
  return `sha256=${hmac.digest('hex')}`;
}

/** What a receiver does: recompute and compare in constant time. */
export function verifyWebhook(
  secret: string,
  timestamp: string | number,
  body: Uint8Array,
  signature: string,
): boolean {
  const seconds = Number(timestamp);
  if (!Number.isInteger(seconds)) return false;
  const expected = Buffer.from(signWebhook(secret, seconds, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
