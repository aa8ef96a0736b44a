// The layering rules of src/ (issue 12, point 5). test/architecture/layering.test.ts runs them
// through dependency-cruiser's API and adds the one rule it cannot express (no cycle between
// top-level folders); `npx depcruise src --config .dependency-cruiser.cjs` runs them by hand.
// Type-only imports count: a cycle through types is still a design cycle.

/** The doors: the only code that may know HTTP, Fastify and the route files. */
const DOORS = '^src/(api/|compose/|cli/|main[.]ts$)';

/**
 * The layers of ARCHITECTURE.md's "Layers point down only", top first: a part imports only
 * parts of the layers below its own; parts of one layer never import each other (models/
 * sits beside scrape/: scrape never imports it). Every top-level folder and file of src/ is
 * in exactly one layer (the layering test checks that too).
 */
const LAYERS = [
  ['cli'],
  ['main.ts'],
  ['api', 'compose'],
  ['jobs', 'workflows'],
  ['firecrawl', 'map'],
  ['scrape', 'models'],
  ['accounts', 'documents'],
  ['billing', 'markdown'],
  ['store'],
  ['config.ts', 'errors.ts'],
];

/** A top-level part of src/ as a path pattern: a folder and everything in it, or one file. */
const partPath = (part) =>
  part.endsWith('.ts') ? `^src/${part.replace('.', '[.]')}$` : `^src/${part}/`;

/** One rule per part: nothing of its own layer or above it, but itself. */
const layerRules = LAYERS.flatMap((layer, rank) =>
  layer.map((part) => ({
    name: 'layers-point-down',
    comment:
      'A part of src/ imports only the layers below its own (ARCHITECTURE.md, "Layers point ' +
      'down only"), never one beside or above it.',
    severity: 'error',
    from: { path: partPath(part) },
    to: {
      // The top layer's one part has nothing above or beside it: '^$' matches no import.
      path:
        LAYERS.slice(0, rank + 1)
          .flat()
          .filter((other) => other !== part)
          .map(partPath)
          .join('|') || '^$',
    },
  })),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'models-use-only-billing-and-store',
      comment:
        "src/models/ (the operator's model) uses only billing, store, config.ts and errors.ts.",
      severity: 'error',
      from: { path: '^src/models/' },
      to: { path: '^src/(accounts|documents|markdown)/' },
    },
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
