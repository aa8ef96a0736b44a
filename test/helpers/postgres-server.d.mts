/** Types of postgres-server.mjs (plain JS: scripts/run-tests.mjs starts it before tsx). */
export interface ThrowawayPostgres {
  port: number;
  adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export function findPostgresBin(): string | null;
export function startPostgres(): Promise<ThrowawayPostgres>;
