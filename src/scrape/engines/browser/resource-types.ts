/**
 * The contract's 11 blockable types are Playwright's `request.resourceType()` names. Chromium
 * has a few more; each is blocked together with the listed type that carries the same
 * traffic, so blocking e.g. `xhr,fetch` also stops beacons and sockets:
 * - `ping` (sendBeacon, <a ping>) with any of `xhr`, `fetch`, `other`;
 * - `websocket` with `xhr` or `fetch` (script-driven data channels);
 * - `cspviolationreport`, `prefetch`, `preflight`, `signedexchange` with `other`.
 * `document` (the main page and iframes) is never blocked by type.
 */
import type { ResourceType } from '../../types.js';

const EXTRA_TYPES: Record<string, readonly ResourceType[]> = {
  ping: ['xhr', 'fetch', 'other'],
  websocket: ['xhr', 'fetch'],
  cspviolationreport: ['other'],
  prefetch: ['other'],
  preflight: ['other'],
  signedexchange: ['other'],
};

/** The Playwright resource types to abort for a request's `block_resources`. */
export function blockedPlaywrightTypes(blocked: readonly ResourceType[]): Set<string> {
  const types = new Set<string>(blocked);
  for (const [extra, carriers] of Object.entries(EXTRA_TYPES)) {
    if (carriers.some((c) => types.has(c))) types.add(extra);
  }
  types.delete('document');
  return types;
}
