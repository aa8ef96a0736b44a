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
    {
      name: 'one-http-client',
      comment:
        'Outbound requests go through src/scrape/net/http-client.ts: only it, the fetch ' +
        "engine's own parts (src/scrape/engines/fetch/) and the sessions' kept connection " +
        'import undici, and nothing outside src/scrape/ reaches into the fetch engine. The ' +
        "one exception is the operator's own model endpoint (src/models/chat-model.ts): an " +
        "address from the settings, often on loopback (Ollama), never a caller's URL, so the " +
        "address guard for callers' URLs does not apply to it.",
      severity: 'error',
      from: {
        path: '^src/',
        pathNot:
          '^src/(scrape/(net/http-client[.]ts|net/sessions[.]ts|engines/fetch/)|models/chat-model[.]ts$)',
      },
      to: { path: '(^|/)node_modules/undici/|^undici$' },
    },
    {
      name: 'fetch-internals-stay-in-scrape',
      comment: "Only src/scrape/ imports the fetch engine's parts (src/scrape/engines/fetch/).",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/scrape/' },
      to: { path: '^src/scrape/engines/fetch/' },
    },
    {
      name: 'parts-built-by-the-root',
      comment:
        'Only the composition root (src/main.ts, src/compose/) builds the HTTP client, the ' +
        "job queue, the proxy pools and the workflows' list cache; every other file takes " +
        'them as types, handed in.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(main[.]ts$|compose/)' },
      to: {
        path: '^src/(scrape/net/(http-client|proxy-pools)|store/job-queue|workflows/list-cache)[.]ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'credits-move-in-billing',
      comment:
        'Every credit movement goes through src/billing/credits.ts (issue 27): nothing outside ' +
        'src/billing/ imports the ledger (credit-ledger.ts) or the PostgreSQL end ' +
        '(end-with-record-pg.ts).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/billing/' },
      to: { path: '^src/billing/(credit-ledger|end-with-record-pg)[.]ts$' },
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
