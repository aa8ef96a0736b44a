/**
 * What a warm context is created with and can never change afterwards: Playwright sets
 * `isMobile`, `hasTouch`, the device scale factor, the user agent and `ignoreHTTPSErrors`
 * per context. A warm page is only reused by a scrape with the same profile (its key is
 * part of the pool key, next to the isolation key and the proxy), so a desktop render never
 * lands in a phone's context and a certificate check is never skipped by accident.
 */
import type { BrowserContextOptions } from 'playwright-core';
import type { ScrapeOptions } from '../../types.js';

export interface ContextProfile {
  /** A phone: narrow viewport, 3x pixels, touch, a mobile Chrome user agent. */
  mobile: boolean;
  /** Accept any TLS certificate (the caller's skipTlsVerification). */
  ignoreHttpsErrors: boolean;
}

/** An iPhone-sized window (390x844 CSS pixels at 3x), the common phone in 2024-2026. */
export const MOBILE_VIEWPORT = { width: 390, height: 844 } as const;
const MOBILE_SCALE = 3;
const DESKTOP_VIEWPORT = { width: 1920, height: 1080 } as const;

export function profileOf(
  options: Pick<ScrapeOptions, 'mobile' | 'skipTlsVerification'>,
): ContextProfile {
  return { mobile: options.mobile, ignoreHttpsErrors: options.skipTlsVerification };
}

export function profileKey(profile: ContextProfile): string {
  return `${profile.mobile ? 'mobile' : 'desktop'}${profile.ignoreHttpsErrors ? '+insecure' : ''}`;
}

/** The window a render starts with: the phone's for mobile, else the caller's. */
export function windowOf(options: Pick<ScrapeOptions, 'mobile' | 'windowWidth' | 'windowHeight'>): {
  width: number;
  height: number;
} {
  if (options.mobile) return { ...MOBILE_VIEWPORT };
  return { width: options.windowWidth, height: options.windowHeight };
}

export function scaleOf(options: Pick<ScrapeOptions, 'mobile'>): number {
  return options.mobile ? MOBILE_SCALE : 1;
}

/**
 * Chrome on Android with the reduced user agent real Chrome sends since version 110
 * (`Android 10; K`, minor versions zeroed), on this Chromium's major version so that the
 * string and the engine's behaviour agree.
 */
export function mobileUserAgent(browserVersion: string): string {
  const major = /^(\d+)/.exec(browserVersion)?.[1] ?? '130';
  return `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`;
}

/** The profile's part of `browser.newContext()`'s options. */
export function contextOptionsOf(
  profile: ContextProfile,
  browserVersion: string,
): BrowserContextOptions {
  const device: BrowserContextOptions = profile.mobile
    ? {
        viewport: { ...MOBILE_VIEWPORT },
        deviceScaleFactor: MOBILE_SCALE,
        isMobile: true,
        hasTouch: true,
        userAgent: mobileUserAgent(browserVersion),
      }
    : { viewport: { ...DESKTOP_VIEWPORT }, deviceScaleFactor: 1 };
  return { ...device, ignoreHTTPSErrors: profile.ignoreHttpsErrors };
}
