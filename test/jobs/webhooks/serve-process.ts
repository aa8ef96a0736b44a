/**
 * `pagegrab serve` as a separate process (it must be killable with SIGKILL), and the
 * `pagegrab accounts create` command line, as an operator runs them.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../helpers/free-port.js';
import { pagegrabCommand } from '../../helpers/pagegrab-command.js';

const root = join(import.meta.dirname, '..', '..', '..');

export interface CliAccount {
  id: string;
  apiKey: string;
  webhookSecret: string;
}

export async function createAccountWithCli(
  env: Record<string, string>,
  credits: number,
): Promise<CliAccount> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      ...pagegrabCommand(),
      'accounts',
      'create',
      '--name',
      // Names are unique (migration 015): callers sharing a database each get their own.
      `t-${Math.random().toString(36).slice(2, 10)}`,
      '--credits',
      String(credits),
      '--json',
    ],
    { cwd: root, env: { PATH: process.env.PATH ?? '', ...env } },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as CliAccount;
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** kill -9: no shutdown, no lease released. */
  kill(): Promise<void>;
  /** SIGTERM: the service drains and exits. */
  stop(): Promise<void>;
  /** Exit code (null while running) and the last of its output, for failure messages. */
  describe(): string;
}

/** Output kept per process: enough for the error that ended it. */
const OUTPUT_TAIL_CHARS = 8000;

export async function spawnServe(env: Record<string, string>): Promise<ServeProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...pagegrabCommand(), 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      // Workers boot on the first page that needs one: most of these nodes never convert, and a
      // boot at start cost each node 1-2 s of CPU (MARKDOWN_WORKERS_AT_START).
      MARKDOWN_WORKERS_AT_START: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Both streams: the service logs (LOG_LEVEL) to stdout, Node reports crashes on stderr.
  let stderr = '';
  const keep = (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pagegrab serve exited: ${stderr}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`pagegrab serve did not start in 90 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    exited,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
    describe: () =>
      `pid ${child.pid}, exit ${child.exitCode ?? child.signalCode}, output: ${stderr}`,
  };
}
