/**
 * What a crawl decides, free of storage: when a host may start a page (its bound across
 * every crawl and node, its delay), what a lane does when nothing can start, how long a
 * refusing host waits, and what a page that a redirect took elsewhere becomes. The frontier
 * (take-page.ts, land-redirect.ts, crawl-frontier.ts) reads the rows, asks these, and writes
 * what they answer.
 */

/** How long a lane waits before looking again when nothing can start. */
export const IDLE_WAIT_MS = 200;
/** The shortest wait a lane is told: a zero wait would spin on a page about to be free. */
const MIN_WAIT_MS = 20;
const MAX_BACKOFF_MS = 60_000;

/** A host as its locked row and its running pages show it. */
export interface HostState {
  /** No page of the host starts before this (its delay, or a 429/503 backoff). */
  nextAt: number;
  /** Pages of the host running now, on every crawl and node. */
  running: number;
}

export type HostVerdict =
  /** Start the page; `nextAt`: the host's next start (null: no delay, leave it). */
  { type: 'start'; nextAt: number | null } | { type: 'wait'; runAt: number };

/** Whether a page of the host may start at `now`, decided under the host's row lock. */
export function hostVerdict(
  host: HostState,
  now: number,
  hostConcurrency: number,
  delayMs: number,
): HostVerdict {
  if (host.nextAt > now) return { type: 'wait', runAt: host.nextAt };
  // Full: one of its pages ends at an unknown time, so look again soon.
  if (host.running >= hostConcurrency) return { type: 'wait', runAt: now + IDLE_WAIT_MS };
  return { type: 'start', nextAt: delayMs > 0 ? now + delayMs : null };
}

/**
 * The delay between two starts on a host for one crawl: the longest of the crawl's own,
 * the operator's (CRAWL_HOST_DELAY_MS) and robots.txt's Crawl-delay (unless the crawl
 * ignores robots.txt).
 */
export function hostDelayMs(
  crawlDelayMs: number,
  settingDelayMs: number,
  robotsDelayMs: number,
  ignoreRobotsTxt: boolean,
): number {
  return Math.max(crawlDelayMs, settingDelayMs, ignoreRobotsTxt ? 0 : robotsDelayMs);
}

/** Hosts not worth a candidate look (a hint, checked again under the host's lock). */
export function busyHosts(
  waiting: readonly { host: string; nextAt: number }[],
  full: readonly string[],
  now: number,
): { busy: Set<string>; soonest: number } {
  const busy = new Set<string>();
  let soonest = Number.POSITIVE_INFINITY;
  for (const row of waiting) {
    if (row.nextAt <= now) continue;
    busy.add(row.host);
    soonest = Math.min(soonest, row.nextAt);
  }
  for (const host of full) busy.add(host);
  return { busy, soonest };
}

/** The crawl's open pages, read in one statement. */
export interface OpenPages {
  queued: number;
  running: number;
  /** The soonest `not_before` of a queued page (a throttled one), null when none is set. */
  soonest: number | null;
}

export type IdleAnswer =
  | { type: 'wait'; runAt: number }
  /** Nothing queued; pages may still be running (and discover more). */
  | { type: 'empty'; running: number };

/**
 * No page could start: wait while any is queued (until the soonest busy host or throttled
 * page is free, at most IDLE_WAIT_MS), else the crawl's queue is empty.
 */
export function idleAnswer(now: number, soonestHost: number, open: OpenPages): IdleAnswer {
  if (open.queued === 0) return { type: 'empty', running: open.running };
  const later = open.soonest === null ? now + IDLE_WAIT_MS : open.soonest;
  const runAt = Math.max(now + MIN_WAIT_MS, Math.min(soonestHost, later, now + IDLE_WAIT_MS));
  return { type: 'wait', runAt };
}

/** A refusing host's next backoff: double the last one, from `firstMs` (CRAWL_BACKOFF_MS) up to 60 s. */
export function nextBackoffMs(previousMs: number, firstMs: number): number {
  return Math.min(MAX_BACKOFF_MS, Math.max(firstMs, previousMs * 2));
}

/** Until when a refusing host waits: what its Retry-After said, else the backoff. */
export function throttledUntil(now: number, retryAfter: number | null, backoffMs: number): number {
  return now + (retryAfter ?? backoffMs);
}

/** The crawl's row for a redirect's target, if it has one. */
export interface KeyRow {
  id: string;
  state: string;
}

export type RedirectLanding =
  /** The page already stands for the target (its own key). */
  | { type: 'keep' }
  /** The target is new: it joins the crawl's keys as a `redirected` row. */
  | { type: 'add' }
  /** The target was only queued, never loaded: that row stops being a page of its own. */
  | { type: 'take-over'; rowId: string }
  /** Another row has, or is loading, the target's content. */
  | { type: 'duplicate' };

/** What a page a redirect took to another URL becomes, in its ending transaction. */
export function redirectLanding(known: KeyRow | undefined, pageId: string): RedirectLanding {
  if (!known) return { type: 'add' };
  if (known.id === pageId) return { type: 'keep' };
  if (known.state !== 'queued') return { type: 'duplicate' };
  return { type: 'take-over', rowId: known.id };
}

/**
 * Before it is stored: a page that landed on a URL another row of the crawl holds (in any
 * state but queued) is that row's content again, not a page of its own.
 */
export function landedOnAnotherPage(otherState: string | null): boolean {
  return otherState !== null && otherState !== 'queued';
}
