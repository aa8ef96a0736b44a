import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * Builds the dashboard into dist/dashboard/, which the service serves at `/`.
 * Paths are resolved from this file so the build works from any working directory:
 * `vite build --config dashboard/vite.config.ts`.
 */
const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  // JSX through esbuild rather than a plugin: one less dependency, same output for Preact.
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard/', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // The service serves everything itself: no polyfill fetched, no inline data: URLs of
    // assets larger than a few bytes.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: true,
  },
  server: { host: '127.0.0.1' },
});
