/** Types of test-order.mjs (plain JS: run-tests.mjs runs before tsx is loaded). */
export function startOrder(files: string[], seconds: Record<string, number>): string[];
