/** `pagegrab serve`: the service in the foreground, stopped by SIGTERM or SIGINT (the drain). */
import { CLOSE_MARGIN_MS } from '../compose/start-up.js';
import type { Config } from '../config.js';
import { startService } from '../main.js';
import { UsageError } from './cli-errors.js';
import { firstRunBanner } from './first-run-banner.js';
import { stopWhenParentExits } from './parent-watch.js';
import { prettyLogStream } from './pretty-log.js';

/** A signal arrived before the service listened: the start was stopped, as asked. */
export class StartStopped extends Error {
  override name = 'StartStopped';
  constructor(signal: NodeJS.Signals) {
    super(`stopped by ${signal} during start-up`);
  }
}

/** Resolves once the service listens; from then on its signal handlers end the process. */
export async function runServeCommand(args: string[], config: Config): Promise<void> {
  if (args.length > 0) throw new UsageError(`serve takes no arguments, got "${args[0]}"`);
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
  if (config.exitWithParent) stopWhenParentExits();
  const pretty =
    config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY);
  const service = await startService(config, {
    announceFirstRun: (run) => console.log(firstRunBanner(run)),
    warmBrowser: true,
    warmOutputWorkers: config.markdownWorkersAtStart,
    signal: stop.signal,
    ...(pretty ? { logStream: prettyLogStream(process.stdout) } : {}),
  });
  // Drain handlers first: while a signal has no listener Node closes its watcher, and a
  // signal already queued for the old watcher is lost (seen: SIGTERM ignored after start).
  service.closeOnSignals();
  process.off('SIGTERM', hold).off('SIGINT', hold);
  if (early) process.kill(process.pid, early);
}
