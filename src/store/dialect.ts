/** The SQL engine a store runs on; the migrations and a few queries differ by it. */
export type Dialect = 'sqlite' | 'postgres';
