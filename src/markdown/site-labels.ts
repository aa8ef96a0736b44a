/**
 * The site's own labels: the texts of the links in its navigation (menus, header, footer,
 * breadcrumbs). A section name ("News", "A-Frauen", "Termine / Ausschreibungen") printed at
 * the edge of the article as a kicker or as the title of a removed teaser list is one of them:
 * alone on a line at the article's edge, such a text names a part of the site, not the story.
 */
import type { ElementNode } from './dom.js';
import { innerText } from './measure.js';

/** Menu items are a few words. */
const MAX_LABEL = 40;
const NAV_TAGS = new Set(['nav', 'header', 'footer']);
const NAV_ROLES = new Set(['navigation', 'menu', 'menubar', 'banner', 'contentinfo']);
const NAV_CLASS =
  /(?:^|[\s_-])(?:nav|navbar|navigation|menu|breadcrumbs?|footer|header)(?:$|[\s_-])/i;

export type SiteLabels = ReadonlySet<string>;

export function normalizeLabel(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

export function collectSiteLabels(body: ElementNode): SiteLabels {
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
