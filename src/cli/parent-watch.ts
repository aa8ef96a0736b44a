/**
 * `npx pagegrab serve` runs the command under `npm exec` → `sh -c` → node. npm passes a
 * SIGTERM (or a SIGINT sent to npm alone) to the shell, and dash dies of it without passing
 * it on: the service was left running as an orphan, its port still open (issue 30). So a
 * service started by npm watches the process that started it, and stops itself the way a
 * signal would (the drain, then exit) once that process is gone.
 *
 * Only when npm started it (config EXIT_WITH_PARENT): a service started with `nohup … &`
 * or by a shell that then exits is meant to outlive its parent.
 */

import { isAlive } from '../store/data-dir-lock.js';

/** How often the parent is looked for: the port stays open at most this long after it died. */
const POLL_MS = 250;

/** Sends SIGTERM to this process once `parentPid` is gone; returns the stop of the watch. */
export function stopWhenParentExits(parentPid: number = process.ppid): () => void {
  const timer = setInterval(() => {
    if (isAlive(parentPid)) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, POLL_MS);
  // The watch never keeps a process alive on its own: serving does.
  timer.unref();
  return () => clearInterval(timer);
}
