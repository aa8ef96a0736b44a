/**
 * Upstream proxies are set per context (Chromium needs nothing at launch for that), so
 * requests through different proxies share one browser. Credentials come from the URL.
 */
import type { ProxyEndpoint } from '../../types.js';

export interface PlaywrightProxy {
  server: string;
  username?: string;
  password?: string;
}

/** The key warm pages are grouped by: never reuse a context across proxies or credentials. */
export function proxyKey(proxy: ProxyEndpoint | null): string {
  return proxy === null ? 'direct' : `proxy:${proxy.url}`;
}

export function toPlaywrightProxy(proxy: ProxyEndpoint | null): PlaywrightProxy | undefined {
  if (proxy === null) return undefined;
  const url = new URL(proxy.url);
  const server = `${url.protocol}//${url.host}`;
  if (!url.username) return { server };
  return {
    server,
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}

/** The proxy's address without credentials, for error texts and logs. */
export function redactedProxy(proxy: ProxyEndpoint): string {
  const url = new URL(proxy.url);
  return `${url.protocol}//${url.host}`;
}
