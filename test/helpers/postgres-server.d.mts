/** Types of postgres-server.mjs (plain JS: scripts/run-tests.mjs starts it before tsx). */
export interface ThrowawayPostgres {
  port: number;
  adminUrl: string;
  urlFor(database: string): string;
  /** Fast shutdown (`pg_ctl stop -m fast`): every session ends with 57P01. */
  halt(): Promise<void>;
  /** Starts it again on the same port and data after `halt`, once it accepts connections. */
  resume(): Promise<void>;
  /** `pg_ctl restart -m fast`: halt, then resume. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export function findPostgresBin(): string | null;
export function startPostgres(): Promise<ThrowawayPostgres>;
