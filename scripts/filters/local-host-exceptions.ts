/**
 * Filter lists exempt development hosts from blocking (AdGuard Base carries
 * `@@://127.0.0.1$generichide`, `@@://localhost:$generichide`, `@@||192.168.$~third-party`...).
 * The contract (2.12) says blocking applies on every host, loopback and bare IPs included, so
 * the build drops every exception whose target, or whose `$domain=` scope, is such a host.
 */

// An IPv4 literal or a prefix of one (`192.168.`), as rules write them.
const IPV4 = /^(\d{1,3})\.(\d{1,3})?[\d.]*$/;

/** True for loopback, private, link-local and unspecified hosts and `.localhost`/`.local`. */
export function isLocalHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === '' || h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local')) {
    return true;
  }
  if (h === '::1' || h === '::' || h.startsWith('fe80:') || /^f[cd][0-9a-f]{2}:/.test(h)) {
    return true;
  }
  const m = IPV4.exec(h);
  if (!m) return false;
  const a = Number(m[1]);
  const b = m[2] === undefined ? -1 : Number(m[2]);
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 192 && b === 168) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 169 && b === 254)
  );
}

/** The host a network rule's pattern names, or null when the pattern names none. */
function patternHost(pattern: string): string | null {
  let p = pattern;
  if (p.startsWith('||')) p = p.slice(2);
  else if (p.startsWith('|')) p = p.slice(1);
  const scheme = /^[a-z]*:\/\//i.exec(p);
  if (scheme) p = p.slice(scheme[0].length);
  // `[::1]` keeps its colons; otherwise the host ends at the first port, path or separator.
  const host = p.startsWith('[') ? p.slice(0, p.indexOf(']') + 1) : /^[^/:^*|?]*/.exec(p)?.[0];
  return host ? host : null;
}

function domainOption(options: string): string[] {
  const m = /(?:^|,)domain=([^,]*)/.exec(options);
  return m?.[1] ? m[1].split('|').map((d) => d.replace(/^~/, '')) : [];
}

/** True when `line` is an exception (network `@@` or cosmetic `#@#`-style) for a local host. */
export function isLocalHostException(line: string): boolean {
  if (line.startsWith('@@')) {
    const body = line.slice(2);
    const dollar = body.lastIndexOf('$');
    const pattern = dollar === -1 ? body : body.slice(0, dollar);
    const host = patternHost(pattern);
    if (host !== null && isLocalHost(host)) return true;
    const domains = dollar === -1 ? [] : domainOption(body.slice(dollar + 1));
    return domains.length > 0 && domains.every(isLocalHost);
  }
  // Cosmetic exceptions: `host1,host2#@#selector`, `#@$#`, `#@%#`, `#@?#`...
  const at = line.indexOf('#@');
  if (at > 0) {
    const domains = line.slice(0, at).split(',');
    return domains.every((d) => isLocalHost(d.replace(/^~/, '')));
  }
  return false;
}

/** Removes local-host exceptions from a raw list; returns the kept text and the dropped lines. */
export function stripLocalHostExceptions(text: string): { text: string; dropped: string[] } {
  const dropped: string[] = [];
  const kept = text.split('\n').filter((raw) => {
    const line = raw.trim();
    if (isLocalHostException(line)) {
      dropped.push(line);
      return false;
    }
    return true;
  });
  return { text: kept.join('\n'), dropped };
}
