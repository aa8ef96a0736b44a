/**
 * Runs the real `pagegrab` command line as a child process (the build when current, else
 * through tsx: helpers/pagegrab-command.ts), for the tests of `serve` and `accounts`: what an
 * operator types, with a temp DATA_DIR.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pagegrabCommand } from '../helpers/pagegrab-command.js';

export function cliEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'info',
    // Workers boot on the first page that needs one: most of these nodes never convert, and a
    // boot at start cost each node 1-2 s of CPU (MARKDOWN_WORKERS_AT_START).
    MARKDOWN_WORKERS_AT_START: 'false',
    ...extra,
  };
  return env;
}

/** Runs a one-shot command; resolves with its exit code and output. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgs, ...pagegrabCommand(), ...args],
      { env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export interface ServeProcess {
  child: ChildProcess;
  /** Every stdout line so far. */
  lines: string[];
  /** Resolves with the http://host:port the server listens on. */
  listening: Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** `pagegrab serve`; the address comes from Fastify's "Server listening at" log line. */
export function spawnServe(env: NodeJS.ProcessEnv): ServeProcess {
  const child = spawn(process.execPath, [...pagegrabCommand(), 'serve'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
  const listening = new Promise<string>((resolve, reject) => {
    const reader = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    reader.on('line', (line) => {
      lines.push(line);
      const found = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (found?.[1]) resolve(found[1]);
    });
    void exited.then(({ code }) =>
      reject(new Error(`serve exited with ${code} before listening: ${stderr}`)),
    );
  });
  listening.catch(() => {});
  return { child, lines, listening, exited };
}

/** How the process ended, or a failure if it is still running `guardMs` later (a hang). */
export async function exitOf(
  server: ServeProcess,
  guardMs = 60_000,
): Promise<Awaited<ServeProcess['exited']>> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still running ${guardMs} ms later`)), guardMs);
  });
  try {
    return await Promise.race([server.exited, guard]);
  } finally {
    clearTimeout(timer);
  }
}
