import { type AppError, appError } from '../../errors.js';

/**
 * Every value error of the scraper parameters reads `Invalid value for <name>: <expected>`,
 * so a client can always tell which parameter to fix (contract 2.1).
 */
export function invalidValue(name: string, expected: string): AppError {
  return appError('INVALID_PARAMETER', `Invalid value for ${name}: ${expected}`);
}

/** A query parameter given more than once: which value was meant is not ours to guess. */
export function repeatedParameter(name: string): AppError {
  return appError('INVALID_PARAMETER', `Parameter ${name} must be given only once`);
}
