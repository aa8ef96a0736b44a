/** The `pagegrab` command: `serve` (default), `accounts ...`, `schedules list` or `proxies` (loaded by main.ts). */

import { CLOSE_MARGIN_MS, ListenError } from '../compose/start-up.js';
import { ConfigError, loadConfig } from '../config.js';
import { startService } from '../main.js';
import { DataDirLockedError } from '../store/data-dir-lock.js';
import { DatabaseUnavailableError } from '../store/db.js';
import { runAccountsCommand, UsageError } from './accounts-command.js';
import { firstRunBanner } from './first-run-banner.js';
import { prettyLogStream } from './pretty-log.js';
import { runProxiesCommand } from './proxies-command.js';
import { runSchedulesCommand } from './schedules-command.js';

const HELP = `pagegrab: self-hosted page scraping service

  pagegrab serve                       start the service (PORT, HOST, DATA_DIR, DATABASE_URL, ...)
  pagegrab accounts create --name <name> --credits <n> [--json]
  pagegrab accounts credit <name|id> <delta>
  pagegrab accounts rotate-key <name|id>
  pagegrab accounts list [--json]
  pagegrab schedules list [--account <name|id>] [--json]
  pagegrab proxies [--json]            PROXIES_FILE's proxies and their state in the running service`;

/** A signal arrived before the service listened: the start was stopped, as asked. */
class StartStopped extends Error {
  override name = 'StartStopped';
  constructor(signal: NodeJS.Signals) {
    super(`stopped by ${signal} during start-up`);
  }
}

async function main(argv: string[]): Promise<number> {
  const [command = 'serve', ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP);
    return 0;
  }
  const config = loadConfig();
  if (command === 'serve') {
    // A signal during start-up would kill the process undrained and leave the DATA_DIR lock
    // behind: it stops the start instead (closing what was built), and one that comes after
    // listen is handed to the drain handlers.
    let early: NodeJS.Signals | null = null;
    const stop = new AbortController();
    const hold = (signal: NodeJS.Signals) => {
      early = signal;
      stop.abort(new StartStopped(signal));
      setTimeout(() => process.exit(1), config.shutdownGraceMs + CLOSE_MARGIN_MS).unref();
    };
    process.once('SIGTERM', hold).once('SIGINT', hold);
    const pretty =
      config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY);
    const service = await startService(config, {
      announceFirstRun: (run) => console.log(firstRunBanner(run)),
      warmBrowser: true,
      signal: stop.signal,
      ...(pretty ? { logStream: prettyLogStream(process.stdout) } : {}),
    });
    // Drain handlers first: while a signal has no listener Node closes its watcher, and a
    // signal already queued for the old watcher is lost (seen: SIGTERM ignored after start).
    service.closeOnSignals();
    process.off('SIGTERM', hold).off('SIGINT', hold);
    if (early) process.kill(process.pid, early);
    return -1;
  }
  if (command === 'proxies') {
    await runProxiesCommand(rest, config, (line) => console.log(line));
    return 0;
  }
  if (command === 'accounts') {
    await runAccountsCommand(rest, config, (line) => console.log(line));
    return 0;
  }
  if (command === 'schedules') {
    await runSchedulesCommand(rest, config, (line) => console.log(line));
    return 0;
  }
  console.error(HELP);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof StartStopped) {
      console.error(`pagegrab: ${error.message}`);
      process.exit(0);
    }
    const known =
      error instanceof ConfigError ||
      error instanceof UsageError ||
      error instanceof DataDirLockedError ||
      error instanceof ListenError ||
      error instanceof DatabaseUnavailableError;
    console.error(known ? `pagegrab: ${(error as Error).message}` : error);
    // What start-up built is closed by now; a connect still pending (a silent database)
    // must not keep a process that will never serve.
    process.exit(known && error instanceof UsageError ? 2 : 1);
  },
);
