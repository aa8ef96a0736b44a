/**
 * What `pagegrab serve` prints on its first start (an empty embedded database): the key of
 * the account it made, said to be shown once, the account's name, and where the dashboard
 * and the API reference are. The `API key: <key>` line stays a line of its own (contract 6:
 * scripts read it).
 */
import type { FirstRun } from '../main.js';

export function firstRunBanner(run: FirstRun): string {
  const rule = '─'.repeat(72);
  return [
    rule,
    'pagegrab: first start. An account was created for you.',
    '',
    `  Account:    ${run.accountName} (${run.credits} credits, id ${run.accountId})`,
    `API key: ${run.apiKey}`,
    '  This key is shown once: only its hash is stored. Keep it somewhere safe.',
    `  Lost it? \`pagegrab accounts rotate-key ${run.accountName}\` prints a new one.`,
    '',
    `  Dashboard:  ${run.url}/  (sign in with the key)`,
    `  API docs:   ${run.url}/docs`,
    rule,
  ].join('\n');
}
