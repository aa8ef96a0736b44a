import type { Pricing } from '../config.js';

/**
 * The proxy types that have a price: the keys of the configured multipliers. Billing names
 * them through its own setting rather than scrape's ProxyType, so that it sits below the
 * pipeline; a proxy type without a multiplier then fails to compile where it is priced.
 */
export type PricedProxyType = keyof Pricing['multipliers'];

/** Contract 2.18: cost = base (fetch or render) x the proxy type's multiplier. */
export function priceOf(pricing: Pricing, render: boolean, proxyType: PricedProxyType): number {
  const base = render ? pricing.baseRender : pricing.baseFetch;
  return Math.ceil(base * pricing.multipliers[proxyType]);
}
