#!/usr/bin/env node
// The package's command. It runs the built code; `npm start` builds it first.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('pagegrab: not built yet; run `npm run build` (or `npm start`) first');
  process.exit(1);
}
await import(entry.href);
