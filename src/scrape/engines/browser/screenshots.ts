/**
 * One screenshot, as the native output, a `document`'s screenshot format or a screenshot
 * step asks for it (ScreenshotRequest): the visible window or the full page, PNG or JPEG,
 * in the run's window or one of its own. A full page is scrolled through first so lazily
 * loaded content is drawn (lazy-content.ts), and cut at `maxFullPageHeight` device pixels.
 */
import type { Page } from 'playwright-core';
import type { ScreenshotRequest } from '../../types.js';
import type { Budget } from './budget.js';
import { drawLazyContent } from './lazy-content.js';

export interface CaptureSettings {
  /** The run's window, restored after a screenshot taken in a window of its own. */
  window: { width: number; height: number };
  /** Device pixels per CSS pixel (3 for mobile). */
  scale: number;
  /** Full-page screenshots stop at this height in device pixels (Chromium's texture limit). */
  maxFullPageHeight: number;
}

export async function capture(
  page: Page,
  request: ScreenshotRequest,
  budget: Budget,
  settings: CaptureSettings,
): Promise<Buffer> {
  const viewport = request.viewport ?? settings.window;
  if (request.viewport) await budget.race(page.setViewportSize(request.viewport));
  try {
    return await shoot(page, request, viewport.width, budget, settings);
  } finally {
    if (request.viewport) await budget.race(page.setViewportSize(settings.window));
  }
}

async function shoot(
  page: Page,
  request: ScreenshotRequest,
  width: number,
  budget: Budget,
  settings: CaptureSettings,
): Promise<Buffer> {
  const format =
    request.quality === null
      ? ({ type: 'png' } as const)
      : ({ type: 'jpeg', quality: request.quality } as const);
  if (!request.fullPage) {
    return budget.race(page.screenshot({ ...format, timeout: budget.remaining() }));
  }
  const maxHeight = Math.floor(settings.maxFullPageHeight / settings.scale);
  await drawLazyContent(page, budget, maxHeight);
  const height = await budget.race(
    page.evaluate(() =>
      Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
    ),
  );
  const timeout = budget.remaining();
  if (height <= maxHeight) {
    return budget.race(page.screenshot({ ...format, fullPage: true, timeout }));
  }
  // Taller pages are cut: Chromium cannot paint a surface beyond ~16k pixels reliably.
  const clip = { x: 0, y: 0, width, height: maxHeight };
  return budget.race(page.screenshot({ ...format, fullPage: true, clip, timeout }));
}
