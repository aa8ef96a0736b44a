/**
 * The soak's traffic mix: each kind is a weight and a request builder. Garbage requests are
 * deliberately wrong (bad parameters, bad keys, odd paths and methods) and must all be 4xx.
 */
export type Kind =
  | 'plain'
  | 'markdown'
  | 'rendered'
  | 'screenshot'
  | 'webhook'
  | 'workflow'
  | 'garbage'
  /** Not in the mix: the soak's bursts that fill the warm-page pool before a memory sample. */
  | 'fill';

export interface SoakTargets {
  base: string;
  apiKey: string;
  /** Fixture pages. */
  page: string;
  article: string;
  /** A page answered after a delay, so the renders of a fill burst overlap. */
  slow: string;
  webhookUrl: string;
  workflowId: string;
}

export interface SoakRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
}

/** Shares of the traffic; garbage is 5% as the issue asks. */
export const MIX: Record<Kind, number> = {
  plain: 35,
  markdown: 20,
  rendered: 12,
  screenshot: 8,
  webhook: 10,
  workflow: 10,
  garbage: 5,
  fill: 0,
};

export function pickKind(random: number): Kind {
  const total = Object.values(MIX).reduce((a, b) => a + b, 0);
  let at = random * total;
  for (const [kind, weight] of Object.entries(MIX) as [Kind, number][]) {
    at -= weight;
    if (at < 0) return kind;
  }
  return 'plain';
}

function scraper(t: SoakTargets, params: Record<string, string>): SoakRequest {
  const query = new URLSearchParams({ api_key: t.apiKey, ...params });
  return { method: 'GET', url: `${t.base}/api/scraper?${query}` };
}

const GARBAGE: ((t: SoakTargets) => SoakRequest)[] = [
  (t) => scraper(t, {}),
  (t) => scraper(t, { url: 'not a url' }),
  (t) => scraper(t, { url: t.page, render: 'maybe' }),
  (t) => scraper(t, { url: t.page, frobnicate: '1' }),
  (t) => scraper(t, { url: t.page, render: 'true', instructions: '[{"click":' }),
  (t) => scraper(t, { url: t.page, markdown: 'true', screenshot: 'true', render: 'true' }),
  (t) => scraper(t, { url: t.page, screenshot: 'true' }),
  (t) => scraper(t, { url: t.page, timeout: '5' }),
  (t) => scraper(t, { url: t.page, proxy_type: 'teleport' }),
  (t) => scraper(t, { url: 'ftp://127.0.0.1/x' }),
  (t) => scraper(t, { workflow_id: 'no-such-workflow' }),
  (t) => ({ method: 'GET', url: `${t.base}/api/scraper?api_key=wrong&url=${t.page}` }),
  (t) => ({ method: 'POST', url: `${t.base}/api/scraper?api_key=${t.apiKey}` }),
  (t) => ({ method: 'GET', url: `${t.base}/api/%ZZ%00../../etc/passwd` }),
  (t) => ({
    method: 'POST',
    url: `${t.base}/api/workflow/create?api_key=${t.apiKey}`,
    headers: { 'content-type': 'application/json' },
  }),
];

export function buildRequest(kind: Kind, t: SoakTargets, n: number, random: number): SoakRequest {
  switch (kind) {
    case 'plain':
      return scraper(t, { url: `${t.page}?n=${n}` });
    case 'markdown':
      return scraper(t, { url: `${t.article}?n=${n}`, markdown: 'true' });
    case 'rendered':
      return scraper(t, { url: `${t.article}?n=${n}`, render: 'true' });
    case 'screenshot':
      return scraper(t, { url: `${t.page}?n=${n}`, render: 'true', screenshot: 'true' });
    case 'webhook':
      return scraper(t, { url: `${t.page}?n=${n}`, webhook_url: t.webhookUrl });
    case 'workflow':
      return scraper(t, { workflow_id: t.workflowId });
    case 'fill':
      return scraper(t, { url: `${t.slow}?n=${n}`, render: 'true' });
    case 'garbage':
      return GARBAGE[Math.floor(random * GARBAGE.length) % GARBAGE.length]?.(t) ?? scraper(t, {});
  }
}
