/**
 * Errors nobody handled in this process while a test ran: an 'error' event with no listener
 * or a rejection with no handler, each of which ends a running service. node:test catches
 * them too, but blames whatever hook started the code (often `before`); this lets the test
 * that provoked one fail on it by name.
 */
export interface UncaughtWatch {
  /** The codes (or messages) seen since the watch began. */
  seen(): string[];
  stop(): void;
}

export function watchUncaught(): UncaughtWatch {
  const seen: string[] = [];
  const record = (error: unknown) => {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    seen.push(code ?? (error instanceof Error ? error.message : String(error)));
  };
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  return {
    seen: () => [...seen],
    stop() {
      process.off('uncaughtException', record);
      process.off('unhandledRejection', record);
    },
  };
}
