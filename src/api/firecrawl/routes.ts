/** Every route of the Firecrawl door, one file each; the door registers them in this order. */
import type { Route } from '../route.js';

export const firecrawlRoutes: readonly Route[] = [];
