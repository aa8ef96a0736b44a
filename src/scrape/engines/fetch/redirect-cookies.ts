/**
 * Cookies set during one scrape's redirect chain. Many sites redirect to set a cookie and
 * then redirect back; without replaying it the chain loops. Deliberately minimal: kept
 * per exact host, attributes other than Max-Age=0 and Expires in the past ignored. Nothing
 * persists between scrapes, except within a sticky session, which carries its cookies
 * from scrape to scrape (and between both engines) through `list` and `from`.
 */
export class RedirectCookies {
  readonly #byHost = new Map<string, Map<string, string>>();

  store(url: URL, setCookie: string | string[] | undefined): void {
    if (!setCookie) return;
    const jar = this.#byHost.get(url.hostname) ?? new Map<string, string>();
    for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const expired = attributes.some((a) => {
        const [key = '', value = ''] = a.split('=').map((s) => s.trim().toLowerCase());
        return (
          (key === 'max-age' && Number(value) <= 0) ||
          (key === 'expires' && Date.parse(value) < Date.now())
        );
      });
      if (expired) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1).trim());
    }
    this.#byHost.set(url.hostname, jar);
  }

  /** A jar holding these cookies (a browser's `.example.com` counts for `example.com`). */
  static from(
    cookies: readonly { name: string; value: string; domain?: unknown }[],
  ): RedirectCookies {
    const jar = new RedirectCookies();
    for (const { name, value, domain } of cookies) {
      if (typeof domain !== 'string' || domain === '') continue;
      const host = domain.replace(/^\./, '');
      const byName = jar.#byHost.get(host) ?? new Map<string, string>();
      byName.set(name, value);
      jar.#byHost.set(host, byName);
    }
    return jar;
  }

  /** Every cookie, in the shape a browser context takes (host-only, path /). */
  list(): { name: string; value: string; domain: string; path: string }[] {
    return [...this.#byHost].flatMap(([domain, byName]) =>
      [...byName].map(([name, value]) => ({ name, value, domain, path: '/' })),
    );
  }

  /** The Cookie header for a request to this URL ('' when none). */
  header(url: URL): string {
    const jar = this.#byHost.get(url.hostname);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : '';
  }
}
