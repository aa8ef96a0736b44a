// A throwaway PostgreSQL for the test run: initdb in a temp folder, listen on a loopback
// port, run as the unprivileged `postgres` user when we are root (PostgreSQL refuses root).
// Plain JS so that scripts/run-tests.mjs can start it before tsx is involved.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function findPostgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const asRoot = process.getuid?.() === 0;

function run(bin, args, options = {}) {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return execFileSync(cmd, argv, { stdio: 'pipe', ...options });
}

/** Starts a server; resolves to { url(database), adminUrl, createDatabase(name), stop() }. */
export async function startPostgres() {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'pagegrab-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  run(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'pagegrab',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const launch = () =>
    spawn(
      asRoot ? 'runuser' : join(bin, 'postgres'),
      [
        ...(asRoot ? ['-u', 'postgres', '--', join(bin, 'postgres')] : []),
        '-D',
        data,
        '-p',
        String(port),
        '-h',
        '127.0.0.1',
        '-k',
        dir,
        '-c',
        'fsync=off',
        '-c',
        'max_connections=300',
        '-c',
        'shared_buffers=64MB',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  let log = '';
  let server;
  const start = async () => {
    server = launch();
    server.stderr.on('data', (chunk) => {
      log += chunk;
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        run(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]);
        return;
      } catch {
        if (Date.now() > deadline || server.exitCode !== null) {
          throw new Error(`PostgreSQL did not start:\n${log}`);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };
  // What `pg_ctl stop -m fast` does: SIGINT to the postmaster ends every session (57P01).
  const halt = async () => {
    // Signal postgres itself: runuser does not pass signals on to its child.
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const exited = new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
    try {
      process.kill(postmaster, 'SIGINT');
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        process.kill(postmaster, 'SIGKILL');
      } catch {
        // already gone
      }
      server.kill('SIGKILL');
    }, 10_000);
    await exited;
    clearTimeout(timer);
  };
  await start();
  const adminUrl = `postgres://pagegrab@127.0.0.1:${port}/postgres`;
  return {
    port,
    adminUrl,
    urlFor: (database) => `postgres://pagegrab@127.0.0.1:${port}/${database}`,
    halt,
    resume: start,
    async restart() {
      await halt();
      await start();
    },
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
