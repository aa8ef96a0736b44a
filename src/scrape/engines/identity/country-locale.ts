/**
 * The language, locale and time zone a person browsing from a country would have, so that
 * a page sees the same place as the proxy's exit address. Derived from ICU's data in Node
 * itself (`Intl.Locale#maximize` gives a country's likely language, `timeZones` its zones),
 * with the main zone named for the countries that span several (ICU lists them
 * alphabetically: `America/Adak` would be first for the US).
 */

export interface CountryLocale {
  /** BCP 47 locale, e.g. `de-DE`. */
  locale: string;
  /** navigator.languages and Accept-Language, most preferred first. */
  languages: string[];
  /** IANA zone, e.g. `Europe/Berlin`. */
  timeZone: string;
}

/** Without a country (a direct connection or a proxy without one): a US desktop. */
export const DEFAULT_COUNTRY_LOCALE: Readonly<CountryLocale> = Object.freeze({
  locale: 'en-US',
  languages: ['en-US', 'en'],
  timeZone: 'America/New_York',
});

/** Where most people of a multi-zone country live (or ICU's first zone is wrong for it). */
const MAIN_ZONE: Readonly<Record<string, string>> = {
  US: 'America/New_York',
  CA: 'America/Toronto',
  BR: 'America/Sao_Paulo',
  MX: 'America/Mexico_City',
  AR: 'America/Argentina/Buenos_Aires',
  CL: 'America/Santiago',
  EC: 'America/Guayaquil',
  RU: 'Europe/Moscow',
  UA: 'Europe/Kyiv',
  KZ: 'Asia/Almaty',
  CN: 'Asia/Shanghai',
  ID: 'Asia/Jakarta',
  MY: 'Asia/Kuala_Lumpur',
  AU: 'Australia/Sydney',
  NZ: 'Pacific/Auckland',
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
  DE: 'Europe/Berlin',
  NL: 'Europe/Amsterdam',
  DK: 'Europe/Copenhagen',
  FR: 'Europe/Paris',
  GB: 'Europe/London',
  CD: 'Africa/Kinshasa',
  MN: 'Asia/Ulaanbaatar',
};

function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Languages as Chrome's settings list them for that locale: the locale, its language, then English. */
function languagesOf(locale: string, language: string): string[] {
  const out = [locale, language, 'en-US', 'en'];
  return out.filter((tag, index) => out.indexOf(tag) === index);
}

/** The locale of an ISO 3166-1 alpha-2 country; null: the default (en-US, New York). */
export function countryLocale(country: string | null): CountryLocale {
  if (country === null || !/^[A-Za-z]{2}$/.test(country)) return { ...DEFAULT_COUNTRY_LOCALE };
  const region = country.toUpperCase();
  let language: string;
  let zones: string[];
  try {
    const likely = new Intl.Locale('und', { region }).maximize();
    // An unknown code maximizes to another country's data (ZZ → the US): not this one.
    if (likely.region !== region) return { ...DEFAULT_COUNTRY_LOCALE };
    language = likely.language === 'und' ? 'en' : likely.language;
    zones = (likely as Intl.Locale & { timeZones?: string[] }).timeZones ?? [];
  } catch {
    return { ...DEFAULT_COUNTRY_LOCALE };
  }
  const zone = MAIN_ZONE[region] ?? zones.find(isZone);
  if (!zone) return { ...DEFAULT_COUNTRY_LOCALE };
  const locale = `${language}-${region}`;
  return { locale, languages: languagesOf(locale, language), timeZone: zone };
}
