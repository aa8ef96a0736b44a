/**
 * What a warm context is created with and can never change afterwards: Playwright sets
 * `isMobile`, `hasTouch`, the device scale factor, the user agent and `ignoreHTTPSErrors`
 * per context. A warm page is only reused by a scrape with the same profile (its key is
 * part of the pool key, next to the isolation key and the proxy), so a desktop render never
 * lands in a phone's context and a certificate check is never skipped by accident.
 */
import type { BrowserContextOptions } from 'playwright-core';
import type { ProxyEndpoint, ScrapeOptions } from '../../types.js';
import { type ChromeIdentity, chromeIdentity } from '../identity/chrome-identity.js';

export interface ContextProfile {
  /** A phone: narrow viewport, 3x pixels, touch, a mobile Chrome user agent. */
  mobile: boolean;
  /** Accept any TLS certificate (the caller's skipTlsVerification). */
  ignoreHttpsErrors: boolean;
  /** The proxy's country: the context's time zone, locale and languages; null: the default. */
  country: string | null;
}

/** An iPhone-sized window (390x844 CSS pixels at 3x), the common phone in 2024-2026. */
export const MOBILE_VIEWPORT = { width: 390, height: 844 } as const;
const MOBILE_SCALE = 3;
const DESKTOP_VIEWPORT = { width: 1920, height: 1080 } as const;

export function profileOf(
  options: Pick<ScrapeOptions, 'mobile' | 'skipTlsVerification' | 'proxyCountry'>,
  proxy: ProxyEndpoint | null,
): ContextProfile {
  return {
    mobile: options.mobile,
    ignoreHttpsErrors: options.skipTlsVerification,
    country: proxy?.country ?? options.proxyCountry,
  };
}

export function profileKey(profile: ContextProfile): string {
  return `${profile.mobile ? 'mobile' : 'desktop'}${profile.ignoreHttpsErrors ? '+insecure' : ''}@${profile.country ?? 'any'}`;
}

/** The Chrome a context of this profile is (identity/chrome-identity.ts). */
export function identityOf(profile: ContextProfile, browserVersion: string): ChromeIdentity {
  return chromeIdentity({
    chromeVersion: browserVersion,
    mobile: profile.mobile,
    country: profile.country,
  });
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
 * The profile's part of `browser.newContext()`'s options. The user agent (Chrome's, never
 * HeadlessChrome's) is set here as well as per page with its client hints (warm-page.ts);
 * workers and out-of-process frames get the page's (target-identity.ts). The locale and
 * languages are per page too (CDP), so that Accept-Language carries q-values like Chrome's
 * rather than Playwright's single tag.
 */
export function contextOptionsOf(
  profile: ContextProfile,
  identity: ChromeIdentity,
): BrowserContextOptions {
  const device: BrowserContextOptions = profile.mobile
    ? {
        viewport: { ...MOBILE_VIEWPORT },
        deviceScaleFactor: MOBILE_SCALE,
        isMobile: true,
        hasTouch: true,
      }
    : { viewport: { ...DESKTOP_VIEWPORT }, deviceScaleFactor: 1 };
  return {
    ...device,
    userAgent: identity.userAgent,
    timezoneId: identity.timeZone,
    ignoreHTTPSErrors: profile.ignoreHttpsErrors,
  };
}
