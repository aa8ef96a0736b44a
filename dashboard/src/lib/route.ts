import { useEffect, useState } from 'preact/hooks';

/** Hash routes: bookmarkable, need nothing from the server beyond index.html at `/`. */
export type Route =
  | { view: 'list'; tab: 'active' | 'archived' }
  | { view: 'new' }
  | { view: 'workflow'; id: string }
  | { view: 'edit'; id: string }
  | { view: 'playground' }
  | { view: 'crawls' }
  | { view: 'crawl'; id: string };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const [first, second, third] = parts;
  if (first === 'playground') return { view: 'playground' };
  if (first === 'crawls' && second) return { view: 'crawl', id: second };
  if (first === 'crawls') return { view: 'crawls' };
  if (first === 'workflows' && second === 'new') return { view: 'new' };
  if (first === 'workflows' && second === 'archived') return { view: 'list', tab: 'archived' };
  if (first === 'workflows' && second && third === 'edit') return { view: 'edit', id: second };
  if (first === 'workflows' && second) return { view: 'workflow', id: second };
  return { view: 'list', tab: 'active' };
}

export const href = {
  list: (tab: 'active' | 'archived' = 'active') =>
    tab === 'active' ? '#/workflows' : '#/workflows/archived',
  create: () => '#/workflows/new',
  workflow: (id: string) => `#/workflows/${encodeURIComponent(id)}`,
  edit: (id: string) => `#/workflows/${encodeURIComponent(id)}/edit`,
  playground: () => '#/playground',
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
