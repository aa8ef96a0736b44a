// The order the test files start in. node:test runs files in the order it is given, two at a
// time, and `node --test` sorts them by name: a two-minute file starting last ran alone at
// the end while the other lane sat idle. So the files that took longest in the last full run
// (scripts/test-seconds.json) start first, longest first; the rest follow by name.

/**
 * @param {string[]} files paths relative to the repository, as the runner finds them
 * @param {Record<string, number>} seconds a file's duration in the last full run
 * @returns {string[]} the same files, longest first, then unknown ones by name
 */
export function startOrder(files, seconds) {
  const known = (file) => (Object.hasOwn(seconds, file) ? seconds[file] : -1);
  return [...files].sort((a, b) => known(b) - known(a) || (a < b ? -1 : a > b ? 1 : 0));
}
