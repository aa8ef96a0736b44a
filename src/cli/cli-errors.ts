/**
 * The command line's own failures, each said in one line by command.ts (`pagegrab: <message>`):
 * a usage error exits 2, any other user error 1. Neither is a bug, so neither shows a stack.
 */

/** The command was typed wrong (unknown command or option, a missing or malformed value). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command was right but cannot be done (a taken name, an unreachable service). */
export class CliError extends Error {
  override name = 'CliError';
}
