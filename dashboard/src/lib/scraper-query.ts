export type RunOutput = 'saved' | 'html' | 'markdown' | 'screenshot';

/** Scraper query parameters for a config: booleans as true/false, instructions as JSON. */
export function configToQuery(config: Record<string, unknown>): URLSearchParams {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined || value === null || value === '') continue;
    if (key === 'instructions') q.set(key, JSON.stringify(value));
    else q.set(key, String(value));
  }
  return q;
}

/**
 * The query that runs a saved workflow. Explicit query parameters win over the saved
 * config (contract 2.8), so "run as HTML/Markdown/screenshot" only adds overrides; the
 * saved workflow itself never changes through a run.
 */
export function runQuery(workflowId: string, output: RunOutput): URLSearchParams {
  const q = new URLSearchParams({ workflow_id: workflowId });
  const set = (markdown: boolean, screenshot: boolean) => {
    q.set('markdown', String(markdown));
    q.set('screenshot', String(screenshot));
    q.set('screenshot_full_page', 'false');
  };
  if (output === 'html') set(false, false);
  if (output === 'markdown') set(true, false);
  if (output === 'screenshot') {
    set(false, true);
    q.set('render', 'true');
  }
  return q;
}

/** POSIX-shell single quoting: safe for any text, including quotes and `$`. */
function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * The curl command equivalent to a playground request. The key is the environment
 * variable, never the real key, so the command can be pasted into tickets and docs.
 */
export function curlCommand(origin: string, query: URLSearchParams): string {
  const lines = [
    `curl -G ${shellQuote(`${origin}/api/scraper`)}`,
    `-H "X-API-Key: $PAGEGRAB_API_KEY"`,
  ];
  for (const [key, value] of query) lines.push(`--data-urlencode ${shellQuote(`${key}=${value}`)}`);
  const screenshot =
    query.get('screenshot') === 'true' || query.get('screenshot_full_page') === 'true';
  const markdown = query.get('markdown') === 'true';
  lines.push(`-o ${screenshot ? 'page.png' : markdown ? 'page.md' : 'page.html'}`);
  return lines.join(' \\\n  ');
}
