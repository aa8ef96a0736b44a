/** Where the compiled tree is: build/test-js/test/a.test.js for test/a.test.ts. */
export const compiledRoot: string;
/** The compiled path of a source under the repository. */
export function compiledPath(source: string): string;
/** Compiles one source to `out` (by default its place in build/test-js). */
export function compileOne(source: string, out?: string): Promise<void>;
/** Compiles what changed; returns how many files were compiled. */
export function compileTests(): Promise<number>;
