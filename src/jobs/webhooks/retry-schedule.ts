/**
 * When a webhook delivery is tried again (contract 23): network errors, timeouts, 408, 429
 * and 5xx are retried with exponential backoff and jitter; 8 attempts in all. With the
 * default base of 30 s the seven waits are about 30 s, 1, 2, 4, 8, 16 and 32 min: 63.5 min
 * in all, "about an hour", and jitter of ±20 % keeps a burst of failures from retrying in
 * lockstep.
 */

/** Attempts in all, the first included. */
export const WEBHOOK_MAX_ATTEMPTS = 8;

/** Share of each wait that is random, either way. */
const JITTER = 0.2;

/**
 * Milliseconds to wait after failed attempt `attempt` (1-based) before the next one:
 * base × 2^(attempt−1), scaled by a random factor in [1−JITTER, 1+JITTER).
 * @param random a number in [0, 1). Default `Math.random`.
 */
export function retryDelayMs(
  attempt: number,
  baseMs: number,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, attempt - 1);
  const nominal = baseMs * 2 ** exponent;
  return Math.round(nominal * (1 - JITTER + 2 * JITTER * random()));
}

/** A receiver's answer that is worth trying again; any other non-2xx ends the delivery. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}
