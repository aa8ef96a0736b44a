import { repeatedParameter } from './invalid.js';

/**
 * The `workflow_id` of a scraper query, for the workflow lookup that runs before the
 * parameters are validated (contract 1.2). Empty means none; repeated is 400.
 */
export function workflowIdOf(query: Record<string, unknown>): string | null {
  const value = Object.hasOwn(query, 'workflow_id') ? query.workflow_id : undefined;
  if (Array.isArray(value)) {
    throw repeatedParameter('workflow_id');
  }
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
