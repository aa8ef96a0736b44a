/**
 * Every view of the console at 1280 px wide, light and dark: titled, no sideways scroll, no
 * serious or critical axe-core violation (console-audit.ts).
 */
import { auditLooks } from './console-audit.js';
import { LOOKS } from './console-views.js';

auditLooks(LOOKS.filter((look) => look.width === 1280));
