/**
 * Moves focus to a view's heading when the view changes, as a page load would put a screen
 * reader at the top of the new page: without it focus stays on the link that was clicked (or
 * falls back to the body when that link goes away), and the new view is never announced.
 * The heading may appear only once the view's data is in, so it is awaited for a while; a
 * user who has already moved focus into the view keeps it.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { Route } from './route.js';

/** How long a view may take to show its heading before focus is left alone. */
const HEADING_WAIT_MS = 10_000;

/** A view's identity: the same view with other filters (the log's query) is no change. */
export function viewKey(route: Route): string {
  return [route.view, 'id' in route ? route.id : '', 'tab' in route ? route.tab : ''].join('/');
}

function focusHeading(main: HTMLElement): boolean {
  const active = document.activeElement;
  if (active && active !== main && main.contains(active)) return true;
  const heading = main.querySelector<HTMLElement>('h1');
  if (!heading) return false;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus();
  return true;
}

export function useViewFocus(key: string): void {
  const first = useRef(true);
  useEffect(() => {
    // The first view is the page load itself: focus starts at the top as usual.
    if (first.current) {
      first.current = false;
      return;
    }
    const main = document.getElementById('main');
    if (!main || focusHeading(main)) return;
    const observer = new MutationObserver(() => {
      if (focusHeading(main)) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    const stop = setTimeout(() => observer.disconnect(), HEADING_WAIT_MS);
    return () => {
      observer.disconnect();
      clearTimeout(stop);
    };
  }, [key]);
}
