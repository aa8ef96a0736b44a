import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routes: bookmarkable, need nothing from the server beyond index.html at `/`. A new
 * view is a member here, a case in parseRoute, an entry in lib/nav.ts and a branch in app.tsx.
 */
export type Route =
  | { view: 'overview' }
  | { view: 'requests'; query: URLSearchParams }
  | { view: 'request'; id: string }
  | { view: 'list'; tab: 'active' | 'archived' }
  | { view: 'new' }
  | { view: 'workflow'; id: string }
  | { view: 'edit'; id: string }
  | { view: 'playground' }
  | { view: 'keys' }
  | { view: 'crawls' }
  | { view: 'crawl'; id: string };

export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').map(decodeURIComponent);
  const [first, second, third] = parts;
  if (first === 'playground') return { view: 'playground' };
  if (first === 'keys') return { view: 'keys' };
  if (first === 'requests' && second) return { view: 'request', id: second };
  if (first === 'requests') return { view: 'requests', query: new URLSearchParams(search) };
  if (first === 'crawls' && second) return { view: 'crawl', id: second };
  if (first === 'crawls') return { view: 'crawls' };
  if (first === 'workflows' && second === 'new') return { view: 'new' };
  if (first === 'workflows' && second === 'archived') return { view: 'list', tab: 'archived' };
  if (first === 'workflows' && second && third === 'edit') return { view: 'edit', id: second };
  if (first === 'workflows' && second) return { view: 'workflow', id: second };
  if (first === 'workflows') return { view: 'list', tab: 'active' };
  return { view: 'overview' };
}

export const href = {
  overview: () => '#/',
  requests: (query?: URLSearchParams) => {
    const q = query?.toString();
    return q ? `#/requests?${q}` : '#/requests';
  },
  request: (id: string) => `#/requests/${encodeURIComponent(id)}`,
  list: (tab: 'active' | 'archived' = 'active') =>
    tab === 'active' ? '#/workflows' : '#/workflows/archived',
  create: () => '#/workflows/new',
  workflow: (id: string) => `#/workflows/${encodeURIComponent(id)}`,
  edit: (id: string) => `#/workflows/${encodeURIComponent(id)}/edit`,
  playground: () => '#/playground',
  keys: () => '#/keys',
  crawls: () => '#/crawls',
  crawl: (id: string) => `#/crawls/${encodeURIComponent(id)}`,
};

export function navigate(to: string): void {
  window.location.hash = to;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
