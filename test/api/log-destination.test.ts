/**
 * The request log's default destination (stdout) writes lines in batches: a quiet node's
 * lines still come out within the flush interval, and what is queued is written at exit.
 * A real process: stdout is the point.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { it } from 'node:test';
import { builtIsCurrent } from '../helpers/pagegrab-command.js';

const root = resolve(import.meta.dirname, '..', '..');

/** The app instance module: the build when current, else the source through tsx. */
function appInstanceModule(): { args: string[]; path: string } {
  const built = join(root, 'dist', 'api', 'app-instance.js');
  if (builtIsCurrent(join(root, 'src'), built)) return { args: [], path: built };
  return { args: ['--import', 'tsx'], path: join(root, 'src', 'api', 'app-instance.ts') };
}

/** Answers `count` requests, then waits (a quiet node) until stdin says to exit. */
const CHILD = `
const { createAppInstance } = await import(process.argv[1]);
const count = Number(process.argv[2]);
const app = createAppInstance({ logLevel: 'info' });
app.get('/', async () => 'ok');
await app.ready();
for (let i = 0; i < count; i++) await app.inject('/');
process.stdin.once('data', () => process.exit(0));
`;

function startChild(count: number) {
  const { args, path } = appInstanceModule();
  const child = spawn(
    process.execPath,
    [...args, '--input-type=module', '-e', CHILD, path, String(count)],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let lines = 0;
  let partial = '';
  let errors = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    const whole = (partial + text).split('\n');
    partial = whole.pop() ?? '';
    lines += whole.filter((line) => line.includes('"request completed"')).length;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  return { child, lines: () => lines, errors: () => errors };
}

it("writes a quiet node's lines without waiting for a full batch, and the rest at exit", async () => {
  const quiet = startChild(3);
  const busy = startChild(2_000);
  try {
    // Three lines are far below a batch: only the periodic flush writes them.
    const deadline = Date.now() + 20_000;
    while (quiet.lines() < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(quiet.lines(), 3, quiet.errors());
    const closed = once(busy.child, 'close');
    // Asked to exit at once after its answers: whatever is queued then is written on exit.
    busy.child.stdin.write('exit\n');
    const [code] = await closed;
    assert.equal(code, 0, busy.errors());
    assert.equal(busy.lines(), 2_000);
  } finally {
    for (const { child } of [quiet, busy]) if (child.exitCode === null) child.kill('SIGKILL');
  }
});
