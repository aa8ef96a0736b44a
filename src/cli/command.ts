/**
 * The `pagegrab` command (loaded by main.ts): the global flags, then one command, each loaded
 * only when it is the one asked for (`--help` and `--version` load none: under load, importing
 * the whole service made `--help` take 4.8 s). Every failure ends here as one line on stderr,
 * `pagegrab: <message>`, exit 2 for a usage error and 1 otherwise; the stack only with
 * `--verbose` or DEBUG.
 */
import { readFileSync } from 'node:fs';
import { type Config, ConfigError, debugRequested, loadConfig } from '../config.js';
import { CliError, UsageError } from './cli-errors.js';

const HELP = `pagegrab: self-hosted page scraping service

Usage:
  pagegrab serve                       start the service (PORT, HOST, DATA_DIR, DATABASE_URL, ...)
  pagegrab accounts create --name <name> --credits <n> [--concurrency <n>] [--json]
  pagegrab accounts credit <name|id> <delta> [--json]
  pagegrab accounts rotate-key <name|id> [--json]
  pagegrab accounts list [--show-secrets] [--json]
  pagegrab schedules list [--account <name|id>] [--json]
  pagegrab proxies [--json]            PROXIES_FILE's proxies and their state in the running service

Options:
  --json           print the result as one JSON document on one line: an object for one
                   thing (an account, a key), an array for a list (empty: [])
  --show-secrets   accounts list: include each account's webhook secret
  --verbose        on a failure, print its stack as well (also DEBUG=1)
  --help, -h       this text
  --version        the version

Account names are unique. Failures print one line, "pagegrab: <reason>", on stderr:
exit 2 for a usage error, 1 for any other.`;

type Print = (line: string) => void;
type Run = (args: string[], config: Config, out: Print) => Promise<void>;

/** Each command's module, imported only when it runs. */
const commands: Record<string, () => Promise<Run>> = {
  serve: async () => (await import('./serve-command.js')).runServeCommand,
  accounts: async () => (await import('./accounts-command.js')).runAccountsCommand,
  schedules: async () => (await import('./schedules-command.js')).runSchedulesCommand,
  proxies: async () => (await import('./proxies-command.js')).runProxiesCommand,
};

function version(): string {
  // src/cli/ and dist/cli/ both sit two folders below the package's root.
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** 0 or more: exit with it once the output is written; null: the service is running. */
async function main(argv: string[]): Promise<number | null> {
  const args = argv.filter((arg) => arg !== '--verbose');
  if (args.includes('--help') || args.includes('-h') || args[0] === 'help') {
    console.log(HELP);
    return 0;
  }
  if (args[0] === '--version' || args[0] === '-V') {
    console.log(version());
    return 0;
  }
  const [name = 'serve', ...rest] = args;
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) throw new UsageError(`unknown command "${name}"\n${HELP}`);
  const config = loadConfig();
  await (await load())(rest, config, (line) => console.log(line));
  return name === 'serve' ? null : 0;
}

/** What a failure prints: one line for every failure the user can act on. */
function reportFailure(error: unknown, verbose: boolean): number {
  if (error instanceof Error && error.name === 'StartStopped') {
    console.error(`pagegrab: ${error.message}`);
    return 0;
  }
  const message = error instanceof Error ? error.message : String(error);
  const expected = error instanceof Error && EXPECTED.has(error.name);
  // A usage message carries its usage text on the lines after the reason.
  console.error(`pagegrab: ${message}${expected || verbose ? '' : ' (--verbose shows the stack)'}`);
  if (verbose && error instanceof Error && error.stack) console.error(error.stack);
  return error instanceof UsageError ? 2 : 1;
}

/**
 * Failures that are the user's to fix and say everything in their message. By name, not
 * class: their modules (the store, start-up) are loaded only by the commands that use them.
 */
const EXPECTED = new Set([
  UsageError.name,
  CliError.name,
  ConfigError.name,
  'DataDirLockedError',
  'ListenError',
  'DatabaseUnavailableError',
]);

const argv = process.argv.slice(2);
main(argv).then(
  (code) => {
    if (code !== null) process.exitCode = code;
  },
  (error: unknown) => {
    const code = reportFailure(error, argv.includes('--verbose') || debugRequested());
    // What start-up built is closed by now; a connect still pending (a silent database)
    // must not keep a process that will never serve.
    process.exit(code);
  },
);
