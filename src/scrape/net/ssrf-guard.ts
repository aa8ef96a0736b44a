/**
 * The SSRF guard (contract 2.17): a target, a redirect hop, a browser sub-request or a
 * webhook address may only reach public addresses unless the operator set
 * ALLOW_PRIVATE_NETWORKS. A host is refused when ANY of its addresses is non-public: the
 * client may connect to any of them.
 *
 * Checking a name and then connecting by name would let a DNS answer change in between
 * (rebinding), so `createGuardedLookup` also plugs into the socket itself: the address the
 * socket connects to is the one that was checked.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { appError } from '../../errors.js';
import { isIpLiteral, isPublicAddress } from './address-policy.js';

/** Resolves a host name to all of its addresses. */
export type LookupFn = (hostname: string) => Promise<LookupAddress[]>;

export interface GuardOptions {
  /** ALLOW_PRIVATE_NETWORKS: when true nothing is refused. */
  allowPrivate: boolean;
  /** DNS resolver. Default: the operating system's (`dns.lookup`, all addresses). */
  lookup?: LookupFn;
  /**
   * Which addresses may be reached. Default: `isPublicAddress`. Tests substitute a policy
   * to tell two loopback addresses apart, since they cannot reach a public one.
   */
  isAllowedAddress?: (ip: string) => boolean;
}

export type UrlCheck =
  | { allowed: true }
  | { allowed: false; host: string; reason: 'non-public' | 'unresolved' };

/** Raised by the guarded lookup; the fetch engine turns it into URL_NOT_ALLOWED. */
export class AddressNotAllowedError extends Error {
  readonly code = 'ERR_ADDRESS_NOT_ALLOWED';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to a non-public address (${address})`);
    this.name = 'AddressNotAllowedError';
  }
}

export const systemLookup: LookupFn = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

/** The host of a URL as a resolver wants it: IPv6 without brackets. */
export function hostOf(url: string | URL): string {
  const host = (typeof url === 'string' ? new URL(url) : url).hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

async function addressesOf(host: string, lookup: LookupFn): Promise<LookupAddress[]> {
  if (isIpLiteral(host)) return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  return lookup(host);
}

/** The first address the policy refuses, or null when all are allowed. */
function firstRefused(addresses: LookupAddress[], options: GuardOptions): string | null {
  const allowed = options.isAllowedAddress ?? isPublicAddress;
  return addresses.find((a) => !allowed(a.address))?.address ?? null;
}

/**
 * Resolves the URL's host and reports whether it may be fetched. Never throws for a bad
 * host: a name that does not resolve is `{allowed: false, reason: 'unresolved'}` (a
 * browser asking per sub-request simply blocks it).
 */
export async function checkUrlAllowed(url: string | URL, options: GuardOptions): Promise<UrlCheck> {
  if (options.allowPrivate) return { allowed: true };
  const host = hostOf(url);
  let addresses: LookupAddress[];
  try {
    addresses = await addressesOf(host, options.lookup ?? systemLookup);
  } catch {
    return { allowed: false, host, reason: 'unresolved' };
  }
  if (addresses.length === 0) return { allowed: false, host, reason: 'unresolved' };
  return firstRefused(addresses, options) === null
    ? { allowed: true }
    : { allowed: false, host, reason: 'non-public' };
}

/**
 * Throws `URL_NOT_ALLOWED` when the URL's host resolves to any non-public address, and
 * `FETCH_FAILED` ("could not resolve <host>") when it does not resolve at all.
 */
export async function assertPublicUrl(url: string | URL, options: GuardOptions): Promise<void> {
  const check = await checkUrlAllowed(url, options);
  if (check.allowed) return;
  if (check.reason === 'unresolved')
    throw appError('FETCH_FAILED', `could not resolve ${check.host}`);
  throw appError('URL_NOT_ALLOWED', check.host);
}

/** Throws AddressNotAllowedError when an IP literal (a socket's destination) is refused. */
export function assertAddressAllowed(host: string, address: string, options: GuardOptions): void {
  if (options.allowPrivate) return;
  if (firstRefused([{ address, family: address.includes(':') ? 6 : 4 }], options) !== null) {
    throw new AddressNotAllowedError(host, address);
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** The shape of `net.connect`'s `lookup` option (Node calls it with `all: true` when it races families). */
export type SocketLookup = (
  hostname: string,
  options: { family?: number | string; all?: boolean },
  callback: LookupCallback,
) => void;

function wantedFamily(family: number | string | undefined): number {
  if (family === 'IPv4' || family === 4) return 4;
  if (family === 'IPv6' || family === 6) return 6;
  return 0;
}

/**
 * A `lookup` for sockets that refuses hosts with any non-public address: the socket then
 * connects to an address this function vetted. Pass it to `net.connect`/`tls.connect`
 * (or undici's `connect` options). Note it is only called for names: a socket to an IP
 * literal skips lookup, so check those with `assertAddressAllowed`.
 */
export function createGuardedLookup(options: GuardOptions): SocketLookup {
  const lookup = options.lookup ?? systemLookup;
  return (hostname, lookupOptions, callback) => {
    lookup(hostname).then(
      (all) => {
        const family = wantedFamily(lookupOptions.family);
        const addresses = family === 0 ? all : all.filter((a) => a.family === family);
        const refused = options.allowPrivate ? null : firstRefused(all, options);
        if (refused !== null) return callback(new AddressNotAllowedError(hostname, refused), '');
        const first = addresses[0];
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          error.code = 'ENOTFOUND';
          return callback(error, '');
        }
        if (lookupOptions.all) return callback(null, addresses);
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
