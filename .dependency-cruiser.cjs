// The layering rules of src/ (issue 12, point 5). test/architecture/layering.test.ts runs them
// through dependency-cruiser's API and adds the one rule it cannot express (no cycle between
// top-level folders); `npx depcruise src --config .dependency-cruiser.cjs` runs them by hand.
// Type-only imports count: a cycle through types is still a design cycle.

/** The doors: the only code that may know HTTP, Fastify and the route files. */
const DOORS = '^src/(api/|compose/|cli/|main[.]ts$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No file of src/ may reach itself through its imports.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'api-only-from-doors',
      comment:
        'Only src/api/, src/compose/, src/cli/ and src/main.ts import from src/api/: ' +
        'the pipeline, jobs, workflows, billing, accounts and storage are free of HTTP.',
      severity: 'error',
      from: { path: '^src/', pathNot: DOORS },
      to: { path: '^src/api/' },
    },
    {
      name: 'fastify-only-in-doors',
      comment:
        'Only src/api/, src/compose/, src/cli/ and src/main.ts import fastify or @fastify/*.',
      severity: 'error',
      from: { path: '^src/', pathNot: DOORS },
      // resolved into node_modules, or left as the bare name when it could not be resolved
      to: { path: '(^|/)node_modules/(fastify|@fastify/[^/]+)/|^(fastify|@fastify/[^/]+)(/|$)' },
    },
    {
      name: 'errors-is-the-bottom',
      comment: 'src/errors.ts imports nothing from the project: every layer may import it.',
      severity: 'error',
      from: { path: '^src/errors[.]ts$' },
      to: { pathNot: '(^|/)node_modules/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'store-below-the-pipeline',
      comment:
        'src/store/ imports nothing from scrape, workflows, billing, accounts, jobs or api: ' +
        'storage is below them all.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/(scrape|workflows|billing|accounts|jobs|api)/' },
    },
  ],
  options: {
    // Type-only imports count too (see above).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Packages are leaves: an import of fastify is seen, fastify's own imports are not.
    doNotFollow: { path: '(^|/)node_modules/' },
  },
};
