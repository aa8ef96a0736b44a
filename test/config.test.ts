/** config.ts: defaults, and a bad value stops start-up with a message naming the variable. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, DEFAULTS, loadConfig, MODEL_DEFAULTS } from '../src/config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.match(config.dataDir, /\/data$/);
    assert.equal(config.databaseUrl, null);
    assert.equal(config.allowPrivateNetworks, false);
    assert.equal(config.proxiesFile, null);
    assert.equal(config.logLevel, 'info');
    assert.deepEqual(config.pricing, {
      baseFetch: 1,
      baseRender: 15,
      multipliers: { datacenter: 1, residential: 10, mobile: 25 },
    });
    assert.equal(config.maxBodyBytes, 20 * 1024 * 1024);
    assert.equal(config.accountConcurrency, 10);
    assert.equal(config.pgPoolSize, 10);
    assert.equal(config.pgConnectTimeoutMs, 10_000);
    assert.equal(config.pgStatementTimeoutMs, 30_000);
    assert.equal(config.markdownWorkers, 2);
    assert.equal(config.markdownWorkersAtStart, true);
    assert.equal(loadConfig({ MARKDOWN_WORKERS_AT_START: 'false' }).markdownWorkersAtStart, false);
    assert.equal(config.heapGrowingPercent, 25);
    assert.equal(config.markdownMaxMs, 10_000);
    assert.equal(config.nodeConcurrency, 64);
    assert.equal(config.browserPages, 4);
    assert.equal(config.shutdownGraceMs, 30_000);
    assert.equal(config.webhookBackoffMs, 30_000);
    assert.equal(config.webhookTimeoutMs, 10_000);
    assert.equal(config.jobLeaseMs, 60_000);
    assert.equal(config.jobPollMs, 500);
    assert.equal(config.jobRetentionMs, 7 * 24 * 3600_000);
    assert.equal(config.webhookScrapeConcurrency, 8);
    assert.equal(config.webhookDeliveryConcurrency, 32);
  });

  it('takes every default from DEFAULTS, the one place they are stated', () => {
    const config = loadConfig({});
    for (const [key, value] of Object.entries(DEFAULTS)) {
      if (key === 'chromiumPath' || key === 'dataDir') continue; // detected / resolved
      assert.deepEqual(config[key as keyof typeof config], value, key);
    }
  });

  it('reads the job and webhook worker settings', () => {
    const config = loadConfig({
      JOB_POLL_MS: '50',
      JOB_RETENTION_MS: '3600000',
      WEBHOOK_SCRAPE_CONCURRENCY: '2',
      WEBHOOK_DELIVERY_CONCURRENCY: '64',
    });
    assert.equal(config.jobPollMs, 50);
    assert.equal(config.jobRetentionMs, 3_600_000);
    assert.equal(config.webhookScrapeConcurrency, 2);
    assert.equal(config.webhookDeliveryConcurrency, 64);
  });

  it('reads the contract variables', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@h/db',
      ALLOW_PRIVATE_NETWORKS: 'TRUE',
      PROXIES_FILE: '/etc/proxies.json',
      LOG_LEVEL: 'Debug',
    });
    assert.equal(config.port, 9000);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.dataDir, '/tmp/x');
    assert.equal(config.databaseUrl, 'postgres://u@h/db');
    assert.equal(config.allowPrivateNetworks, true);
    assert.equal(config.proxiesFile, '/etc/proxies.json');
    assert.equal(config.logLevel, 'debug');
  });

  const bad: [string, string, RegExp][] = [
    ['PORT', 'eighty', /^PORT must be an integer/],
    ['PORT', '70000', /^PORT must be between 0 and 65535/],
    ['ALLOW_PRIVATE_NETWORKS', 'maybe', /^ALLOW_PRIVATE_NETWORKS must be true or false/],
    ['LOG_LEVEL', 'loud', /^LOG_LEVEL must be one of/],
    ['DATABASE_URL', 'mysql://x', /^DATABASE_URL must be a postgres/],
    ['PRICE_RENDER', '-3', /^PRICE_RENDER must be a non-negative number/],
    ['MAX_BODY_BYTES', '12abc', /^MAX_BODY_BYTES must be an integer/],
    ['ACCOUNT_CONCURRENCY', '0', /^ACCOUNT_CONCURRENCY must be between/],
    ['SHUTDOWN_GRACE_MS', '1.5', /^SHUTDOWN_GRACE_MS must be an integer/],
    ['PG_POOL_SIZE', '0', /^PG_POOL_SIZE must be between/],
    ['PG_CONNECT_TIMEOUT_MS', '0', /^PG_CONNECT_TIMEOUT_MS must be between 100 and 600000/],
    ['PG_STATEMENT_TIMEOUT_MS', 'never', /^PG_STATEMENT_TIMEOUT_MS must be an integer/],
    ['JOB_POLL_MS', '5', /^JOB_POLL_MS must be between 10 and 60000/],
    ['JOB_POLL_MS', 'soon', /^JOB_POLL_MS must be an integer/],
    ['JOB_RETENTION_MS', '1000', /^JOB_RETENTION_MS must be between 60000 and/],
    ['WEBHOOK_SCRAPE_CONCURRENCY', '0', /^WEBHOOK_SCRAPE_CONCURRENCY must be between 1 and 1024/],
    ['WEBHOOK_DELIVERY_CONCURRENCY', '2000', /^WEBHOOK_DELIVERY_CONCURRENCY must be between 1/],
    ['WEBHOOK_DELIVERY_CONCURRENCY', '8.5', /^WEBHOOK_DELIVERY_CONCURRENCY must be an integer/],
    ['CHROMIUM_PATH', '/nonexistent/chromium', /^CHROMIUM_PATH is not an executable file/],
    ['HEAP_GROWING_PERCENT', '-5', /^HEAP_GROWING_PERCENT must be between 0 and 300/],
  ];
  for (const [name, value, message] of bad) {
    it(`${name}=${value} stops start-up naming ${name}`, () => {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
      );
    });
  }
});

describe('loadConfig: the language model (Firecrawl self-host names)', () => {
  it('none without OPENAI_BASE_URL, OLLAMA_BASE_URL or OPENAI_API_KEY', () => {
    assert.equal(loadConfig({}).model, null);
  });

  it('OPENAI_BASE_URL with MODEL_NAME and a key, and the model settings', () => {
    const { model } = loadConfig({
      OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1/',
      OPENAI_API_KEY: 'sk-x',
      MODEL_NAME: 'qwen2.5',
      MODEL_CONTEXT_CHARS: '5000',
      MODEL_TIMEOUT_MS: '2000',
      PRICE_MODEL_CALL: '2',
      EXTRACT_MAX_PAGES: '3',
    });
    assert.deepEqual(model, {
      baseUrl: 'http://127.0.0.1:8000/v1',
      apiKey: 'sk-x',
      name: 'qwen2.5',
      contextChars: 5000,
      timeoutMs: 2000,
      callPrice: 2,
      extractMaxPages: 3,
    });
  });

  it("OLLAMA_BASE_URL is Ollama's API: its OpenAI-compatible /v1 is used", () => {
    for (const raw of [
      'http://127.0.0.1:11434',
      'http://127.0.0.1:11434/api',
      'http://127.0.0.1:11434/v1',
    ]) {
      const { model } = loadConfig({ OLLAMA_BASE_URL: raw, MODEL_NAME: 'llama3.2' });
      assert.equal(model?.baseUrl, 'http://127.0.0.1:11434/v1', raw);
      assert.equal(model?.apiKey, null);
    }
  });

  it("OPENAI_API_KEY alone is OpenAI's own API with the default model and figures", () => {
    const { model } = loadConfig({ OPENAI_API_KEY: 'sk-x' });
    assert.equal(model?.baseUrl, MODEL_DEFAULTS.openAiBaseUrl);
    assert.equal(model?.name, MODEL_DEFAULTS.openAiModel);
    assert.equal(model?.contextChars, MODEL_DEFAULTS.contextChars);
    assert.equal(model?.timeoutMs, MODEL_DEFAULTS.timeoutMs);
    assert.equal(model?.callPrice, MODEL_DEFAULTS.callPrice);
  });

  it('a base URL without MODEL_NAME, or a bad URL, stops start-up naming the setting', () => {
    assert.throws(
      () => loadConfig({ OLLAMA_BASE_URL: 'http://127.0.0.1:11434' }),
      /^ConfigError: MODEL_NAME is required with OLLAMA_BASE_URL/,
    );
    assert.throws(
      () => loadConfig({ OPENAI_BASE_URL: 'ftp://x', MODEL_NAME: 'm' }),
      /OPENAI_BASE_URL must be an absolute http\(s\) URL/,
    );
    assert.throws(
      () => loadConfig({ OPENAI_API_KEY: 'k', MODEL_TIMEOUT_MS: '5' }),
      /MODEL_TIMEOUT_MS must be between 100 and/,
    );
  });
});
