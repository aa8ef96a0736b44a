/** Types of bench-dist.mjs (plain JS: a preload uses it). */
export function benchDist(): URL;
