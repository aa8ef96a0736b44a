// Preloaded (`--require`) by test/cli/heap-growth-first.test.ts and command.test.ts: records
// each V8 heap-growth flag the process sets, with whether Fastify, playwright-core or a
// database driver (the service's bulk; the store every command but --help and --version
// opens) were loaded by then, and at exit whether any was loaded at all (so the check is not
// vacuous).
const { syncBuiltinESMExports } = require('node:module');
const v8 = require('node:v8');

const bulkLoaded = () =>
  Object.keys(require.cache).some((path) =>
    /[\\/]node_modules[\\/](fastify|playwright-core|better-sqlite3|pg)[\\/]/.test(path),
  );
const original = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => {
  if (flags.startsWith('--heap-growing-percent'))
    process.stderr.write(`HEAP-FLAG ${flags} bulk-loaded=${bulkLoaded()}\n`);
  return original(flags);
};
syncBuiltinESMExports();
process.on('exit', () => process.stderr.write(`EXIT bulk-loaded=${bulkLoaded()}\n`));
