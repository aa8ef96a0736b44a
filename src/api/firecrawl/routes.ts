/** Every route of the Firecrawl door, one file each; the door registers them in this order. */
import type { Route } from '../route.js';
import scrapePost from './scrape.post.js';
import screenshotGet from './screenshot.get.js';
import teamGet from './team.get.js';

export const firecrawlRoutes: readonly Route[] = [scrapePost, teamGet, screenshotGet];
