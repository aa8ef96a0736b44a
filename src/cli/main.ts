/** The `pagegrab` command: `serve` (default) or `accounts ...`. */
import { ConfigError, loadConfig } from '../config.js';
import { startService } from '../main.js';
import { DataDirLockedError } from '../store/data-dir-lock.js';
import { runAccountsCommand, UsageError } from './accounts-command.js';

const HELP = `pagegrab: self-hosted page scraping service

  pagegrab serve                       start the service (PORT, HOST, DATA_DIR, DATABASE_URL, ...)
  pagegrab accounts create --name <name> --credits <n> [--json]
  pagegrab accounts credit <name|id> <delta>
  pagegrab accounts rotate-key <name|id>
  pagegrab accounts list [--json]`;

async function main(argv: string[]): Promise<number> {
  const [command = 'serve', ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP);
    return 0;
  }
  const config = loadConfig();
  if (command === 'serve') {
    const service = await startService(config, {
      announceKey: (line) => console.log(line),
      warmBrowser: true,
    });
    service.closeOnSignals();
    return -1;
  }
  if (command === 'accounts') {
    await runAccountsCommand(rest, config, (line) => console.log(line));
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
    const known =
      error instanceof ConfigError ||
      error instanceof UsageError ||
      error instanceof DataDirLockedError;
    console.error(known ? `pagegrab: ${(error as Error).message}` : error);
    process.exitCode = known && error instanceof UsageError ? 2 : 1;
  },
);
