/**
 * What start-up needs to fail or stop cleanly. A failed listen once left Chromium, the output
 * workers and the job workers running in a process that no longer served and never exited;
 * a signal during a start-up that waited on a silent database was held for good.
 */

/** The service cannot bind its address: said in one line, without a stack trace. */
export class ListenError extends Error {
  override name = 'ListenError';
}

const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: 'the address is already in use (another process listens there)',
  EACCES: 'permission denied',
  EADDRNOTAVAIL: 'the address is not one of this machine',
};

/** A listen failure an operator fixes by a setting as a ListenError; anything else as it is. */
export function listenError(error: unknown, host: string, port: number): unknown {
  const why = LISTEN_FAILURES[(error as NodeJS.ErrnoException | null)?.code ?? ''];
  return why ? new ListenError(`cannot listen on ${host}:${port} (HOST, PORT): ${why}`) : error;
}

/**
 * After SHUTDOWN_GRACE_MS for in-flight work, this long again for closing the browser, the
 * workers and the database before the process exits regardless (a silent database or a hung
 * browser must not keep a stopped node alive).
 */
export const CLOSE_MARGIN_MS = 5_000;

/** The parts built so far and the stop request, for a start-up that may fail or be stopped. */
export class StartUp {
  readonly #closers: Array<() => unknown> = [];
  readonly #signal: AbortSignal | undefined;

  constructor(signal?: AbortSignal) {
    this.#signal = signal;
  }

  /** `work`, or the stop's reason as soon as a stop is asked for (the work itself runs on). */
  step<T>(work: Promise<T>): Promise<T> {
    const signal = this.#signal;
    if (!signal) return work;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const onStop = () => reject(signal.reason);
      signal.addEventListener('abort', onStop, { once: true });
      work.then(
        (value) => {
          signal.removeEventListener('abort', onStop);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onStop);
          reject(error);
        },
      );
    });
  }

  /** A step that builds a part: the part is closed on teardown, even if it arrives after it. */
  build<T>(work: Promise<T>, close: (part: T) => unknown): Promise<T> {
    let closeNow: (() => unknown) | null = null;
    let tornDown = false;
    work.then(
      (part) => {
        if (tornDown) void Promise.resolve(close(part)).catch(() => {});
        else closeNow = () => close(part);
      },
      () => {},
    );
    this.#closers.push(() => {
      tornDown = true;
      return closeNow?.();
    });
    return this.step(work);
  }

  /** Closes a part built synchronously on teardown. */
  add(close: () => unknown): void {
    this.#closers.push(close);
  }

  /** Closes every part once, newest first; one that fails to close does not stop the rest. */
  async teardown(onError: (error: unknown) => void): Promise<void> {
    for (const close of this.#closers.splice(0).reverse()) {
      try {
        await close();
      } catch (error) {
        onError(error);
      }
    }
  }
}
