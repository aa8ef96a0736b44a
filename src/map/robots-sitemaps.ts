/**
 * The sitemaps a site declares: robots.txt's `Sitemap:` lines (parsed by `robots-parser`),
 * and the conventional /sitemap.xml, which many sites serve without declaring it. Robots
 * rules are not applied: a map lists a site's URLs, it does not fetch them (Firecrawl's map
 * does the same).
 */
import robotsParserModule from 'robots-parser';

// robots-parser is CommonJS (`module.exports = function`) whose types declare an ES default
// export; under NodeNext the default import is module.exports itself, the function.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/**
 * The longest robots.txt read, in characters (Google reads 500 KiB): robots-parser reads the
 * whole text in one synchronous run, and a map's fetch allows MAX_BODY_BYTES.
 */
export const MAX_ROBOTS_CHARS = 512 * 1024;

/** The absolute http(s) sitemap URLs of a robots.txt's first MAX_ROBOTS_CHARS, in its order. */
export function sitemapsOfRobots(robotsUrl: string, text: string): string[] {
  return robotsParser(robotsUrl, text.slice(0, MAX_ROBOTS_CHARS))
    .getSitemaps()
    .map((url) => URL.parse(url.trim(), robotsUrl))
    .filter((url) => url !== null && (url.protocol === 'http:' || url.protocol === 'https:'))
    .map((url) => (url as URL).href);
}

/** Where a site's robots.txt and conventional sitemap are. */
export function wellKnownOf(pageUrl: string): { robots: string; sitemap: string } {
  const { origin } = new URL(pageUrl);
  return { robots: `${origin}/robots.txt`, sitemap: `${origin}/sitemap.xml` };
}
