/**
 * `pagegrab accounts create|credit|rotate-key|list` (contract 6). With `--json` each prints
 * one JSON document (command.ts's convention): create, credit and rotate-key an object, list
 * an array. Webhook secrets are printed by create, and by list only with `--show-secrets`.
 */
import { parseArgs } from 'node:util';
import {
  type Account,
  AccountNameTakenError,
  createAccount,
  findAccountByNameOrId,
  listAccounts,
  rotateApiKey,
} from '../accounts/account-store.js';
import { grant } from '../billing/credits.js';
import type { Config } from '../config.js';
import { openStore } from '../store/db.js';
import { CliError, UsageError } from './cli-errors.js';

// Still imported from here by proxies-command.ts.
export { UsageError };

const USAGE = `Usage:
  pagegrab accounts create --name <name> --credits <n> [--concurrency <n>] [--json]
  pagegrab accounts credit <name|id> <delta> [--json]
  pagegrab accounts rotate-key <name|id> [--json]
  pagegrab accounts list [--show-secrets] [--json]`;

/** An account as `list` shows it: its webhook secret only when asked for. */
function listed(account: Account, showSecrets: boolean) {
  return {
    id: account.id,
    name: account.name,
    credits: account.credits,
    concurrencyLimit: account.concurrencyLimit,
    ...(showSecrets ? { webhookSecret: account.webhookSecret } : {}),
    createdAt: new Date(account.createdAt).toISOString(),
  };
}

function wholeNumber(raw: string | undefined, what: string, allowNegative = false): number {
  const shape = allowNegative ? /^-?\d+$/ : /^\d+$/;
  // Beyond 2^53 a number is no longer exact, and the database would refuse it.
  if (raw === undefined || !shape.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`${what} must be a whole number${allowNegative ? '' : ' >= 0'}\n${USAGE}`);
  }
  return Number(raw);
}

/**
 * parseArgs reads `-100` (a credit removal) as an unknown option: negative numbers are
 * shielded as positionals, in place, and parse errors become usage errors (exit 2).
 */
function parseCommandLine(args: string[]) {
  const NEGATIVE = '\u0000neg:';
  try {
    const parsed = parseArgs({
      args: args.map((arg) => (/^-\d+$/.test(arg) ? `${NEGATIVE}${arg}` : arg)),
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        credits: { type: 'string' },
        concurrency: { type: 'string' },
        json: { type: 'boolean', default: false },
        'show-secrets': { type: 'boolean', default: false },
      },
    });
    const positionals = parsed.positionals.map((p) =>
      p.startsWith(NEGATIVE) ? p.slice(NEGATIVE.length) : p,
    );
    return { values: parsed.values, positionals };
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
}

export async function runAccountsCommand(
  args: string[],
  config: Config,
  out: (line: string) => void,
): Promise<void> {
  const [sub, ...rest] = args;
  if (!sub || !['create', 'credit', 'rotate-key', 'list'].includes(sub)) {
    throw new UsageError(
      sub ? `unknown accounts command "${sub}"\n${USAGE}` : `a command is required\n${USAGE}`,
    );
  }
  const { values, positionals } = parseCommandLine(rest);
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.pgPoolSize,
    connectTimeoutMs: config.pgConnectTimeoutMs,
    statementTimeoutMs: config.pgStatementTimeoutMs,
  });
  try {
    const db = store.db;
    const target = async () => {
      const nameOrId = positionals[0];
      if (!nameOrId) throw new UsageError(`An account name or id is required\n${USAGE}`);
      const account = await findAccountByNameOrId(db, nameOrId);
      if (!account) throw new UsageError(`No account named or with id "${nameOrId}"`);
      return account;
    };
    switch (sub) {
      case 'create': {
        const name = values.name?.trim();
        if (!name) throw new UsageError(`--name is required\n${USAGE}`);
        const credits = wholeNumber(values.credits, '--credits');
        const concurrencyLimit = values.concurrency
          ? wholeNumber(values.concurrency, '--concurrency')
          : config.accountConcurrency;
        const { account, apiKey } = await createAccount(db, {
          name,
          credits,
          concurrencyLimit,
        }).catch((error: unknown) => {
          if (error instanceof AccountNameTakenError) {
            throw new CliError(`${error.message}; names are unique: choose another`);
          }
          throw error;
        });
        if (values.json) {
          out(
            JSON.stringify({
              id: account.id,
              name: account.name,
              credits: account.credits,
              apiKey,
              webhookSecret: account.webhookSecret,
            }),
          );
        } else {
          out(`Account ${account.name} (${account.id}) with ${account.credits} credits`);
          out(`API key: ${apiKey}`);
          out(`Webhook secret: ${account.webhookSecret}`);
        }
        return;
      }
      case 'credit': {
        const account = await target();
        const delta = wholeNumber(positionals[1], 'delta', true);
        const balance = await grant(db, account.id, delta);
        if (balance === null) {
          throw new CliError(`Cannot remove ${-delta} credits: the balance is ${account.credits}`);
        }
        out(
          values.json
            ? JSON.stringify({ id: account.id, name: account.name, credits: balance })
            : `${account.name}: ${balance} credits`,
        );
        return;
      }
      case 'rotate-key': {
        const account = await target();
        const apiKey = await rotateApiKey(db, account.id);
        out(
          values.json
            ? JSON.stringify({ id: account.id, name: account.name, apiKey })
            : `API key: ${apiKey}`,
        );
        return;
      }
      case 'list': {
        const showSecrets = values['show-secrets'];
        const accounts = (await listAccounts(db)).map((a) => listed(a, showSecrets));
        if (values.json) return void out(JSON.stringify(accounts));
        for (const a of accounts) {
          const secret = a.webhookSecret === undefined ? '' : `  webhookSecret=${a.webhookSecret}`;
          out(`${a.id}  ${a.name}  credits=${a.credits}${secret}`);
        }
        return;
      }
      default:
        throw new UsageError(`unknown accounts command "${sub}"\n${USAGE}`);
    }
  } finally {
    await store.close();
  }
}
