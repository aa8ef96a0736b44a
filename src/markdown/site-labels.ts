/**
 * What a page tells of its own site. Its labels: the texts of the links in its navigation
 * (menus, header, footer, breadcrumbs). A section name ("News", "A-Frauen", "Termine /
 * Ausschreibungen") printed at the edge of the article as a kicker or as the title of a
 * removed teaser list is one of them: alone on a line at the article's edge, such a text names
 * a part of the site, not the story. Its names (og:site_name, the canonical host): the
 * publisher's notices about itself (copyright, contact, its app) name it.
 */
import { type ElementNode, findFirst } from './dom.js';
import { innerText } from './measure.js';

/** Menu items are a few words. */
const MAX_LABEL = 40;
const NAV_TAGS = new Set(['nav', 'header', 'footer']);
const NAV_ROLES = new Set(['navigation', 'menu', 'menubar', 'banner', 'contentinfo']);
const NAV_CLASS =
  /(?:^|[\s_-])(?:nav|navbar|navigation|menu|breadcrumbs?|footer|header)(?:$|[\s_-])/i;

/** What the page tells of its own site: its navigation labels and its names. */
export interface Site {
  /** Link texts of the navigation, normalized (normalizeLabel). */
  labels: ReadonlySet<string>;
  /** The site's names squashed (squashName): og:site_name, the canonical host's name. */
  names: readonly string[];
}

export const NO_SITE: Site = { labels: new Set(), names: [] };

export function normalizeLabel(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

export function collectSite(root: ElementNode, body: ElementNode): Site {
  return { labels: collectLabels(body), names: siteNames(root) };
}

function collectLabels(body: ElementNode): ReadonlySet<string> {
  const labels = new Set<string>();
  const links = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (child.tag === 'a') {
        const text = innerText(child);
        if (text.length > 0 && text.length <= MAX_LABEL) labels.add(normalizeLabel(text));
      } else links(child);
    }
  };
  const walk = (el: ElementNode): void => {
    for (const child of el.children) {
      if (child.type !== 'element') continue;
      if (isNavigation(child)) links(child);
      else walk(child);
    }
  };
  walk(body);
  return labels;
}

function isNavigation(el: ElementNode): boolean {
  if (NAV_TAGS.has(el.tag)) return true;
  const role = el.attrs.role;
  if (role && NAV_ROLES.has(role)) return true;
  const named = `${el.attrs.class ?? ''} ${el.attrs.id ?? ''}`;
  return named.length > 1 && NAV_CLASS.test(named);
}

/** Lower case, letters and digits only: "Breaking Belize News" and breakingbelizenews.com meet. */
export function squashName(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

/** A name shorter than this (squashed) would match inside ordinary words. */
const MIN_NAME = 5;

/**
 * The site's names as the page states them: `og:site_name`, and the name part of the host of
 * its canonical URL or `og:url` ("breakingbelizenews" of www.breakingbelizenews.com). Not the
 * URL it was fetched from: a mirror, a cache or a test server would name another site.
 */
function siteNames(root: ElementNode): string[] {
  const names = new Set<string>();
  const urls: string[] = [];
  const head = findFirst(root, 'head');
  for (const el of head ? head.children : []) {
    if (el.type !== 'element') continue;
    const a = el.attrs;
    if (el.tag === 'meta' && a.property === 'og:site_name' && a.content) {
      names.add(squashName(a.content));
    } else if (el.tag === 'meta' && a.property === 'og:url' && a.content) urls.push(a.content);
    else if (el.tag === 'link' && (a.rel ?? '').toLowerCase() === 'canonical' && a.href) {
      urls.push(a.href);
    }
  }
  for (const url of urls) {
    const name = hostName(url);
    if (name) names.add(name);
  }
  return [...names].filter((n) => n.length >= MIN_NAME);
}

function hostName(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  if (!/[a-z]/i.test(host) || host === 'localhost') return null;
  const labels = host.split('.');
  // the label before the public suffix; two-part suffixes (co.uk, com.au) by their short label
  let i = labels.length - 2;
  if (i > 0 && (labels[i] as string).length <= 3 && (labels[i + 1] as string).length === 2) i--;
  return i >= 0 ? squashName(labels[i] as string) : null;
}
