/**
 * A box that may scroll (code, a page's source) must be reachable by keyboard to be scrolled
 * without a mouse (axe: scrollable-region-focusable): focusable, and named for what it holds.
 */
export function scrollable(label: string) {
  return { tabIndex: 0, role: 'region', 'aria-label': label } as const;
}
