/**
 * Queries on the hottest paths (the key lookup, the ledger) are built with Kysely once per
 * dialect and then reused with new parameters: building and compiling was ~15% of the CPU
 * of a scrape (bench/scrape-fetch.ts), and the SQL text never changes.
 */
import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Stand-ins for the parameters while building: unique strings, mapped back by position. */
const marker = (index: number) => `\u0000pagegrab-parameter-${index}\u0000`;

interface Template {
  sql: string;
  /** For each bound value: the index of the caller's parameter, or the builder's constant. */
  slots: ({ param: number } | { constant: unknown })[];
}

/**
 * `build` receives stand-ins for `params` and must use each as a bound value (never in
 * SQL text). Returns a function giving the compiled query for real parameters.
 */
export function preparedQuery<Params extends unknown[], Row>(
  build: (db: Kysely<Database>, ...params: Params) => Compilable<Row>,
): (db: Kysely<Database>, ...params: Params) => CompiledQuery<Row> {
  // One template per dialect: keyed by the adapter's class, shared by transactions.
  const templates = new Map<unknown, Template>();
  return (db, ...params) => {
    const dialectKey = db.getExecutor().adapter.constructor;
    let template = templates.get(dialectKey);
    if (!template) {
      template = compileTemplate(build, db, params.length);
      templates.set(dialectKey, template);
    }
    const values = template.slots.map((slot) =>
      'param' in slot ? params[slot.param] : slot.constant,
    );
    return CompiledQuery.raw(template.sql, values) as CompiledQuery<Row>;
  };
}

function compileTemplate<Params extends unknown[], Row>(
  build: (db: Kysely<Database>, ...params: Params) => Compilable<Row>,
  db: Kysely<Database>,
  arity: number,
): Template {
  const markers = Array.from({ length: arity }, (_, index) => marker(index));
  const compiled = build(db, ...(markers as Params)).compile();
  for (const value of markers) {
    if (compiled.sql.includes(value)) throw new Error('a prepared parameter reached the SQL text');
  }
  const slots = compiled.parameters.map((value) => {
    const index = markers.indexOf(value as string);
    return index >= 0 ? { param: index } : { constant: value };
  });
  const used = new Set(slots.flatMap((slot) => ('param' in slot ? [slot.param] : [])));
  if (used.size !== arity) throw new Error('every prepared parameter must be bound');
  return { sql: compiled.sql, slots };
}
