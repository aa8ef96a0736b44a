/** Starts one of bench/lib/servers.ts's servers as a child process and waits for its line. */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

export interface ChildServer {
  url: string;
  apiKey?: string;
  pid: number;
  stop(): Promise<void>;
}

export function startChildServer(
  kind: string,
  args: string[] = [],
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
): Promise<ChildServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...nodeFlags,
      '--import',
      'tsx',
      // The service's heap growth set before its code loads, as `npm start` does.
      ...(kind === 'service'
        ? ['--import', pathToFileURL(join(import.meta.dirname, 'service-heap-first.mjs')).href]
        : []),
      join(import.meta.dirname, 'servers.ts'),
      kind,
      ...args,
    ],
    // The service's request log goes to /dev/null: written and serialised, never read.
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } },
  );
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (!line.startsWith('{"url"')) return void process.stderr.write(`[${kind}] ${line}\n`);
      const info = JSON.parse(line) as { url: string; apiKey?: string };
      resolve({
        ...info,
        pid: child.pid as number,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
}
