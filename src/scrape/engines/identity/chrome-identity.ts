/**
 * Who the scraper says it is: a person's stable Google Chrome, on Windows (desktop) or
 * Android (`mobile`), of the same major version as the Chromium that renders, so that the
 * user agent, the client hints and the engine's behaviour agree. Both engines take their
 * identity from here: the browser through its context and CDP's user-agent override, a
 * plain fetch through the header set and order Chrome sends (fetch/browser-headers.ts).
 */
import { type CountryLocale, countryLocale } from './country-locale.js';

/** CDP's Emulation.UserAgentMetadata: what navigator.userAgentData and Sec-CH-UA-* say. */
export interface UserAgentMetadata {
  brands: { brand: string; version: string }[];
  fullVersionList: { brand: string; version: string }[];
  fullVersion: string;
  platform: string;
  platformVersion: string;
  architecture: string;
  model: string;
  mobile: boolean;
  bitness: string;
  wow64: boolean;
}

export interface ChromeIdentity extends CountryLocale {
  userAgent: string;
  /** navigator.platform */
  platform: string;
  metadata: UserAgentMetadata;
  mobile: boolean;
  /** What WEBGL_debug_renderer_info reports: a real GPU's, not a software rasteriser's. */
  webgl: { vendor: string; renderer: string };
}

/** Used when the Chromium version is unknown (its binary could not be asked). */
export const FALLBACK_CHROME_VERSION = '156.0.8078.108';

const GREASE_CHARS = [' ', '(', ':', '-', '.', '/', ')', ';', '=', '?', '_'];
const GREASE_VERSIONS = ['8', '99', '24'];
const BRAND_ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
];

/**
 * Chrome's brand list for a major version, as Chromium's GenerateBrandVersionList builds it
 * (user_agent_utils.cc): a "GREASE" brand whose punctuation, version and position all
 * follow from the major version, Chromium, and Google Chrome. `full` gives the full
 * versions (fullVersionList) instead of the major ones (Sec-CH-UA).
 */
export function chromeBrands(version: string, full = false): { brand: string; version: string }[] {
  const major = Number(/^(\d+)/.exec(version)?.[1] ?? '0');
  const grease = {
    brand: `Not${GREASE_CHARS[major % 11]}A${GREASE_CHARS[(major + 1) % 11]}Brand`,
    version: full ? `${GREASE_VERSIONS[major % 3]}.0.0.0` : (GREASE_VERSIONS[major % 3] ?? '8'),
  };
  const own = full ? version : String(major);
  const list = new Array<{ brand: string; version: string }>(3);
  const order = BRAND_ORDERS[major % 6] ?? [0, 1, 2];
  list[order[0] ?? 0] = grease;
  list[order[1] ?? 1] = { brand: 'Chromium', version: own };
  list[order[2] ?? 2] = { brand: 'Google Chrome', version: own };
  return list;
}

/** The Sec-CH-UA header value of a brand list. */
export function secChUa(brands: readonly { brand: string; version: string }[]): string {
  return brands.map((b) => `"${b.brand}";v="${b.version}"`).join(', ');
}

const DESKTOP_WEBGL = {
  vendor: 'Google Inc. (Intel)',
  renderer: 'ANGLE (Intel, Intel(R) UHD Graphics 620 (0x00005917) Direct3D11 vs_5_0 ps_5_0, D3D11)',
};
const MOBILE_WEBGL = { vendor: 'Qualcomm', renderer: 'Adreno (TM) 640' };

export interface IdentityRequest {
  /** The Chromium version (`browser.version()`), e.g. `156.0.8078.108`. */
  chromeVersion: string;
  mobile: boolean;
  /** The proxy's country; null: the default locale (see country-locale.ts). */
  country: string | null;
}

/**
 * The identity for a version, device and country. The user agent is Chrome's reduced one
 * (minor versions zeroed, `Windows NT 10.0` even on Windows 11, `Android 10; K`).
 */
export function chromeIdentity(request: IdentityRequest): ChromeIdentity {
  const { chromeVersion, mobile } = request;
  const major = /^(\d+)/.exec(chromeVersion)?.[1] ?? '156';
  const userAgent = mobile
    ? `Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Mobile Safari/537.36`
    : `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
  return {
    ...countryLocale(request.country),
    userAgent,
    platform: mobile ? 'Linux armv81' : 'Win32',
    mobile,
    metadata: {
      brands: chromeBrands(chromeVersion),
      fullVersionList: chromeBrands(chromeVersion, true),
      fullVersion: chromeVersion,
      platform: mobile ? 'Android' : 'Windows',
      platformVersion: mobile ? '10.0.0' : '10.0.0',
      architecture: mobile ? '' : 'x86',
      model: mobile ? 'K' : '',
      mobile,
      bitness: mobile ? '' : '64',
      wow64: false,
    },
    webgl: mobile ? MOBILE_WEBGL : DESKTOP_WEBGL,
  };
}

/** `de-DE, de, en` → `de-DE,de;q=0.9,en;q=0.8`: each later language a little less preferred (Chrome's q-values). */
export function acceptLanguage(languages: readonly string[]): string {
  return languages
    .slice(0, 10)
    .map((language, index) =>
      index === 0 ? language : `${language};q=${Math.max(0.1, 1 - index / 10).toFixed(1)}`,
    )
    .join(',');
}
