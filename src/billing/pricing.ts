import type { Pricing } from '../config.js';
import type { ProxyType } from '../scrape/types.js';

/** Contract 2.18: cost = base (fetch or render) x the proxy type's multiplier. */
export function priceOf(pricing: Pricing, render: boolean, proxyType: ProxyType): number {
  const base = render ? pricing.baseRender : pricing.baseFetch;
  return Math.ceil(base * pricing.multipliers[proxyType]);
}
