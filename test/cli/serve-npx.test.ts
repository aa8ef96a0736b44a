/**
 * `npx pagegrab serve` stopped from outside (issue 30, point 12). npm runs the bin through
 * `sh -c`, and passes a SIGTERM (or a SIGINT sent to npm alone) to that shell, which dies of
 * it without passing it on: the service went on as an orphan with its port open. Here the
 * real npx runs the real bin in a process group of its own; SIGTERM goes to npx only, SIGINT
 * to the whole group (a terminal's Ctrl-C: npm itself ignores it), and the service (found by
 * a mark in its environment) must be gone, with every Chromium it started, its port free.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { until } from '../helpers/until.js';
import { cliEnv } from './spawn-cli.js';

const root = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
const started: ChildProcess[] = [];
const marks: string[] = [];

/** Processes whose environment holds `mark`: npm, its shell, the service and its Chromium. */
function processesMarked(mark: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(mark)) pids.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

function portRefuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/**
 * `npx pagegrab serve` (or `npm start`) in the package's folder; resolves with npx (npm) and
 * the service's port.
 */
async function npxServe(
  mark: string,
  command: readonly string[] = ['npx', '--offline', 'pagegrab', 'serve'],
): Promise<{ npx: ChildProcess; port: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pagegrab-npx-'));
  dirs.push(dataDir);
  const [cmd, ...args] = command as [string, ...string[]];
  const npx = spawn(cmd, args, {
    cwd: root,
    env: cliEnv(dataDir, { [mark]: '1', SHUTDOWN_GRACE_MS: '2000' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(npx);
  marks.push(mark);
  let stderr = '';
  npx.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: npx.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      const found = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (found?.[1]) resolve(Number(found[1]));
    });
    npx.once('exit', (code) => reject(new Error(`npx exited with ${code}: ${stderr}`)));
  });
  return { npx, port };
}

after(() => {
  for (const npx of started) if (npx.exitCode === null) npx.kill('SIGKILL');
  // A failed test must not leave its service behind (npx's shell would keep it).
  for (const pid of marks.flatMap(processesMarked)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Ended meanwhile.
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npx pagegrab serve', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const to = signal === 'SIGTERM' ? 'npx alone' : 'the group, as Ctrl-C does';
    it(`${signal} to ${to} ends the service: no orphan, the port free`, async () => {
      const mark = `PAGEGRAB_NPX_MARK_${randomBytes(6).toString('hex')}`;
      const { npx, port } = await npxServe(mark);
      const service = processesMarked(mark).find((pid) =>
        // The bin's path (`…/.bin/pagegrab serve`), not npx's own `… npx --offline pagegrab serve`.
        /\/pagegrab serve$/.test(commandLineOf(pid).trim()),
      );
      assert.ok(service, 'the service process runs under npx');
      assert.notEqual(service, npx.pid, 'npx runs the service in a child, not itself');
      assert.equal(await portRefuses(port), false);

      if (signal === 'SIGTERM') npx.kill(signal);
      else process.kill(-(npx.pid as number), signal);

      await until(() => processesMarked(mark).length === 0, 60_000).catch(() => {});
      assert.deepEqual(
        processesMarked(mark).map((pid) => `${pid} ${commandLineOf(pid)}`),
        [],
        'a process started under npx is still alive',
      );
      assert.equal(await portRefuses(port), true, 'the port is free');
    });
  }
});

describe('npm start', () => {
  it('SIGTERM to npm alone ends the service: no orphan, the port free', async () => {
    const mark = `PAGEGRAB_NPM_MARK_${randomBytes(6).toString('hex')}`;
    // npm → sh -c → bootstrap.mjs → the bin: the shell dies of the signal and passes nothing on.
    const { npx: npm, port } = await npxServe(mark, ['npm', 'start']);
    assert.equal(await portRefuses(port), false);
    npm.kill('SIGTERM');
    await until(() => processesMarked(mark).length === 0, 60_000).catch(() => {});
    assert.deepEqual(
      processesMarked(mark).map((pid) => `${pid} ${commandLineOf(pid)}`),
      [],
      'a process started under npm start is still alive',
    );
    assert.equal(await portRefuses(port), true, 'the port is free');
  });
});
