import { invalidValue } from './invalid.js';

// Digits only: `1e3`, `0x10`, `12.0` and `+5` are not integers a client meant to send.
const DIGITS = /^\d{1,9}$/;

/** An integer in [min, max], from a decimal string (query) or a JSON number (configs). */
export function parseIntegerParam(name: string, value: unknown, min: number, max: number): number {
  let n = Number.NaN;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && DIGITS.test(value.trim())) n = Number(value.trim());
  if (!Number.isInteger(n) || n < min || n > max) {
    throw invalidValue(name, `expected an integer from ${min} to ${max}`);
  }
  return n;
}
