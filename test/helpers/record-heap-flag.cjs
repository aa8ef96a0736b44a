// Preloaded (`--require`) by test/cli/heap-growth-first.test.ts: records each V8 heap-growth
// flag the process sets, with whether Fastify and playwright-core (the service's bulk) were
// loaded by then, and at exit whether they were loaded at all (so the check is not vacuous).
const { syncBuiltinESMExports } = require('node:module');
const v8 = require('node:v8');

const bulkLoaded = () =>
  Object.keys(require.cache).some((path) =>
    /[\\/]node_modules[\\/](fastify|playwright-core)[\\/]/.test(path),
  );
const original = v8.setFlagsFromString;
v8.setFlagsFromString = (flags) => {
  if (flags.startsWith('--heap-growing-percent'))
    process.stderr.write(`HEAP-FLAG ${flags} bulk-loaded=${bulkLoaded()}\n`);
  return original(flags);
};
syncBuiltinESMExports();
process.on('exit', () => process.stderr.write(`EXIT bulk-loaded=${bulkLoaded()}\n`));
