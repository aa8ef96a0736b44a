/**
 * One service node as a real process (`pagegrab serve`: helpers/pagegrab-command.ts), the way an
 * operator runs several of them on one DATABASE_URL, plus the `accounts create` command line.
 * A process, not an in-process app: kill -9 and SIGTERM must hit a whole node.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../helpers/free-port.js';
import { pagegrabCommand } from '../helpers/pagegrab-command.js';

const root = resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);

export interface ServiceNode {
  url: string;
  pid: number;
  /** Resolves when the process has exited (code, or the signal that killed it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the node wrote to stderr and stdout so far (for failure messages). */
  output(): string;
  signal(name: NodeJS.Signals): void;
  /** SIGKILL if still running, and removes its DATA_DIR. */
  stop(): Promise<void>;
}

/**
 * The environment of every node and command: only what config.ts reads, nothing inherited.
 * Without a database URL the node uses the embedded database in DATA_DIR.
 */
function nodeEnv(databaseUrl: string | null, dataDir: string, extra: Record<string, string>) {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? tmpdir(),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
    // Workers boot on the first page that needs one: most of these nodes never convert, and a
    // boot at start cost each node 1-2 s of CPU (MARKDOWN_WORKERS_AT_START).
    MARKDOWN_WORKERS_AT_START: 'false',
    ...extra,
  };
}

async function waitHealthy(url: string, node: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (node.exitCode !== null) throw new Error(`node exited at start:\n${output()}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`node did not become healthy in 60 s:\n${output()}`);
}

/**
 * @param databaseUrl the shared PostgreSQL, or null for the embedded database
 * @param sharedDataDir a DATA_DIR the caller owns (the embedded database of a soak). Default:
 *   a temp folder removed by stop().
 */
export async function startNode(
  databaseUrl: string | null,
  extraEnv: Record<string, string> = {},
  sharedDataDir?: string,
): Promise<ServiceNode> {
  const dataDir = sharedDataDir ?? mkdtempSync(join(tmpdir(), 'pagegrab-node-'));
  const port = await freePort();
  const child = spawn(process.execPath, [...pagegrabCommand(), 'serve'], {
    cwd: root,
    env: nodeEnv(databaseUrl, dataDir, { PORT: String(port), ...extraEnv }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const node: ServiceNode = {
    url,
    pid: child.pid ?? -1,
    exited,
    output: () => log,
    signal: (name) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(name);
    },
    async stop() {
      node.signal('SIGKILL');
      await exited;
      if (!sharedDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await waitHealthy(url, child, node.output);
  } catch (error) {
    await node.stop();
    throw error;
  }
  return node;
}

export interface CreatedAccount {
  id: string;
  apiKey: string;
  webhookSecret: string;
}

/** `pagegrab accounts create --json` against the shared database. */
export async function createAccountCli(
  databaseUrl: string | null,
  credits: number,
  concurrency: number,
  sharedDataDir?: string,
): Promise<CreatedAccount> {
  const dataDir = sharedDataDir ?? mkdtempSync(join(tmpdir(), 'pagegrab-cli-'));
  try {
    const name = `scale-${Math.random().toString(36).slice(2, 10)}`;
    const args = [...pagegrabCommand(), 'accounts', 'create', '--name', name];
    args.push('--credits', String(credits), '--concurrency', String(concurrency), '--json');
    const { stdout } = await run(process.execPath, args, {
      cwd: root,
      env: nodeEnv(databaseUrl, dataDir, {}),
    });
    const line = stdout.split('\n').find((l) => l.startsWith('{'));
    if (!line) throw new Error(`accounts create printed no JSON: ${stdout}`);
    return JSON.parse(line) as CreatedAccount;
  } finally {
    if (!sharedDataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
