/**
 * Validation of the door's JSON bodies against their TypeBox schemas (the same schemas the
 * OpenAPI document shows), answered the way Firecrawl answers: 400 with zod-like `details`,
 * and its own text for a field it does not know. Nothing is coerced and no default inserted:
 * the translation (firecrawl/*.ts) applies Firecrawl's defaults itself.
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type ValueError, ValueErrorType } from '@sinclair/typebox/compiler';
import type { FastifySchemaCompiler } from 'fastify';
import { echoed } from '../../errors.js';
import { type BodyIssue, FirecrawlBodyError } from './firecrawl-errors.js';

/** The path of a problem; its keys are the caller's, shown as any echoed value (errors.ts). */
function pathOf(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : echoed(part)));
}

function issueOf(error: ValueError): BodyIssue {
  const path = pathOf(error.path);
  switch (error.type) {
    case ValueErrorType.ObjectAdditionalProperties: {
      const key = path.pop();
      return {
        code: 'unrecognized_keys',
        keys: [String(key)],
        path,
        message: `Unrecognized key: "${String(key)}"`,
      };
    }
    case ValueErrorType.ObjectRequiredProperty:
      return { code: 'invalid_type', path, message: 'Required' };
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.StringMinLength:
    case ValueErrorType.ArrayMinItems:
      return { code: 'too_small', path, message: error.message };
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.StringMaxLength:
    case ValueErrorType.ArrayMaxItems:
      return { code: 'too_big', path, message: error.message };
    case ValueErrorType.Literal:
    case ValueErrorType.Union:
      return { code: 'invalid_value', path, message: error.message };
    default:
      return { code: 'invalid_type', path, message: error.message };
  }
}

/**
 * The issues of `value` against a compiled schema: unknown keys first (Firecrawl names them
 * before anything else), then the rest in document order; the first of each path only.
 */
export function bodyIssues(check: ReturnType<typeof TypeCompiler.Compile>, value: unknown) {
  const issues: BodyIssue[] = [];
  const seen = new Set<string>();
  for (const error of check.Errors(value)) {
    const issue = issueOf(error);
    const key = `${issue.code}:${issue.path.join('/')}:${issue.keys?.join() ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
    if (issues.length >= 20) break;
  }
  return issues.sort(
    (a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'),
  );
}

/** The door's validatorCompiler: body schemas are checked, everything else passes. */
export const firecrawlValidatorCompiler: FastifySchemaCompiler<TSchema> = ({
  schema,
  httpPart,
}) => {
  if (httpPart !== 'body') return () => true;
  const check = TypeCompiler.Compile(schema);
  return (value: unknown) => {
    if (check.Check(value)) return { value };
    return { error: new FirecrawlBodyError(bodyIssues(check, value)) };
  };
};
