import { href, type Route } from './route.js';

/** The main navigation: one entry per section; a new view adds its entry here. */
export type Section = 'overview' | 'requests' | 'playground' | 'workflows' | 'crawls' | 'keys';

export const NAV: readonly { section: Section; label: string; href: () => string }[] = [
  { section: 'overview', label: 'Overview', href: href.overview },
  { section: 'requests', label: 'Requests', href: () => href.requests() },
  { section: 'playground', label: 'Playground', href: href.playground },
  { section: 'workflows', label: 'Workflows', href: () => href.list() },
  { section: 'crawls', label: 'Crawls', href: href.crawls },
  { section: 'keys', label: 'API keys', href: href.keys },
];

const SECTION: Record<Route['view'], Section> = {
  overview: 'overview',
  requests: 'requests',
  request: 'requests',
  list: 'workflows',
  new: 'workflows',
  workflow: 'workflows',
  edit: 'workflows',
  playground: 'playground',
  keys: 'keys',
  crawls: 'crawls',
  crawl: 'crawls',
};

export const sectionOf = (route: Route): Section => SECTION[route.view];

/** The document title of a view: the browser tab and history say where one is. */
export function titleOf(route: Route, workflowName?: string): string {
  const base = 'pagegrab';
  switch (route.view) {
    case 'overview':
      return `Overview · ${base}`;
    case 'requests':
      return `Requests · ${base}`;
    case 'request':
      return `Request ${route.id.slice(-8)} · ${base}`;
    case 'list':
      return `${route.tab === 'archived' ? 'Archived workflows' : 'Workflows'} · ${base}`;
    case 'new':
      return `New workflow · ${base}`;
    case 'workflow':
      return `${workflowName ?? 'Workflow'} · ${base}`;
    case 'edit':
      return `Edit ${workflowName ?? 'workflow'} · ${base}`;
    case 'playground':
      return `Playground · ${base}`;
    case 'keys':
      return `API keys · ${base}`;
    case 'crawls':
      return `Crawls · ${base}`;
    case 'crawl':
      return `Crawl ${route.id.slice(-8)} · ${base}`;
  }
}
