/**
 * The real service for a test: the same composition root as `pagegrab serve`, on a free
 * loopback port, with a temp DATA_DIR (or a fresh PostgreSQL database) and its own account.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import { createAccount } from '../../src/accounts/account-store.js';
import { loadConfig } from '../../src/config.js';
import { type RunningService, startService as startRealService } from '../../src/main.js';
import { type ModelServer, startModelServer } from './model-server.js';
import { createTestDatabase } from './postgres.js';

export interface TestAccount {
  id: string;
  apiKey: string;
  webhookSecret: string;
}

export interface TestService {
  baseUrl: string;
  apiKey: string;
  accountId: string;
  webhookSecret: string;
  running: RunningService;
  /** Another account on the same service. */
  addAccount(credits: number, concurrencyLimit?: number): Promise<TestAccount>;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  /** Default true: fixture sites live on 127.0.0.1. */
  allowPrivateNetworks?: boolean;
  /** Credits of the test account. Default 1000. */
  credits?: number;
  /** Concurrency limit of the test account. Default 10. */
  concurrencyLimit?: number;
  /** Use a fresh PostgreSQL database instead of a temp DATA_DIR. */
  postgres?: boolean | { url: string };
  /** Extra environment (config.ts variables), e.g. PROXIES_FILE. */
  env?: Record<string, string>;
  logStream?: DestinationStream;
  /**
   * With `allowPrivateNetworks: false`: which addresses count as public (src/main.ts
   * ServiceOptions.addressPolicy), e.g. only 127.0.0.1, so 127.0.0.2 plays a private host.
   */
  addressPolicy?: (ip: string) => boolean;
  /**
   * Boot the output workers with the service, as `pagegrab serve` does (ServiceOptions),
   * for a file whose first requests want Markdown: they boot while the file sets up.
   */
  warmOutputWorkers?: boolean;
}

export async function startService(options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-test-'));
  let dropDatabase: (() => Promise<void>) | null = null;
  let databaseUrl: string | undefined;
  if (typeof options.postgres === 'object') databaseUrl = options.postgres.url;
  else if (options.postgres) {
    const database = await createTestDatabase();
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
  const config = loadConfig({
    PATH: process.env.PATH,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_NETWORKS: String(options.allowPrivateNetworks ?? true),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });
  const running = await startRealService(config, {
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.addressPolicy ? { addressPolicy: options.addressPolicy } : {}),
    ...(options.warmOutputWorkers ? { warmOutputWorkers: true } : {}),
  });
  const addAccount = async (credits: number, concurrencyLimit = 10): Promise<TestAccount> => {
    const { account, apiKey } = await createAccount(running.store.db, {
      name: `test-${Math.random().toString(36).slice(2, 8)}`,
      credits,
      concurrencyLimit,
    });
    return { id: account.id, apiKey, webhookSecret: account.webhookSecret };
  };
  const main = await addAccount(options.credits ?? 1000, options.concurrencyLimit ?? 10);
  return {
    baseUrl: running.url,
    apiKey: main.apiKey,
    accountId: main.id,
    webhookSecret: main.webhookSecret,
    running,
    addAccount,
    async close() {
      await running.close();
      await dropDatabase?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The account's balance as a caller reads it (GET /api/account), by its key. */
export async function balanceOf(service: TestService, apiKey = service.apiKey): Promise<number> {
  const response = await fetch(`${service.baseUrl}/api/account?api_key=${apiKey}`);
  return ((await response.json()) as { credits: number }).credits;
}

/** GET /api/scraper with these parameters and the account's key in its header. */
export async function nativeScrape(service: TestService, params: Record<string, string>) {
  const query = new URLSearchParams(params);
  const response = await fetch(`${service.baseUrl}/api/scraper?${query}`, {
    headers: { 'X-API-Key': service.apiKey },
  });
  return { response, text: await response.text() };
}

/**
 * A loopback OpenAI-compatible server (model `test-model`, no key) and a service that uses
 * it as the operator's model; `env` adds settings (PRICE_MODEL_CALL, MODEL_TIMEOUT_MS, ...).
 * The caller closes both.
 */
export async function startServiceWithModel(
  env: Record<string, string> = {},
): Promise<{ service: TestService; model: ModelServer }> {
  const model = await startModelServer({ model: 'test-model', apiKey: null });
  const service = await startService({
    credits: 1000,
    env: { OPENAI_BASE_URL: model.baseUrl, MODEL_NAME: 'test-model', ...env },
  });
  return { service, model };
}
