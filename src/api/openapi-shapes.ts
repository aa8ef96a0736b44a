import { Type } from '@sinclair/typebox';

export const ErrorBody = Type.Object(
  { error: Type.String({ description: 'What went wrong, in words clients may match on' }) },
  { description: 'Every error answer' },
);

/** Response schemas for the given error statuses, for a route's OpenAPI entry. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody]));
}
