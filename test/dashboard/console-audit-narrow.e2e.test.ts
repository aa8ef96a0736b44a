/**
 * Every view of the console at 375 px wide, light and dark: titled, no sideways scroll, no
 * serious or critical axe-core violation (console-audit.ts).
 */
import { describe } from 'node:test';
import { auditLooks } from './console-audit.js';
import { LOOKS } from './console-views.js';

describe('the console audit at 375 px', () => {
  auditLooks(LOOKS.filter((look) => look.width === 375));
});
