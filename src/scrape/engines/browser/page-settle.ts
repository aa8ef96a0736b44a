/**
 * `wait_until=settled`, the default: after the load event, the render ends when the page's
 * own work has ended and the DOM has been quiet for `QUIET_MS`, or at the cap.
 *
 * Work is what a page does to build its content: fetch, XHR, scripts (module scripts and
 * `import()` chunks included) and sub-documents in flight, a main-frame navigation (a
 * client-side move; the new document is then waited for as the first was), one-shot timers
 * due soon and a meta refresh about to fire (settle-scripts.ts). What stays open is not
 * work: a request still unanswered after `OPEN_REQUEST_MS` (long polls, streams, a request
 * that never answers), a fetch's body still arriving `BODY_MS` after its headers (streams),
 * event streams, beacons, WebSockets (not requests at all here), and a request to an
 * address that answered a while ago (a poll). Work that ended before the load event needs
 * no quiet window: a static page ends right after load.
 *
 * The DOM holds the render only while it keeps changing in the wake of work: at most
 * `DOM_TAIL_MS` after the last work ended, so an interval that rotates a carousel does not
 * hold it to the cap.
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { Page, Request, Response } from 'playwright-core';
import type { Budget } from './budget.js';
import type { SettleProbe } from './settle-scripts.js';

/** No work and no DOM change for this long: the content is complete. */
const QUIET_MS = 100;
/** A request still unanswered after this long is held open by design. */
const OPEN_REQUEST_MS = 1_000;
/**
 * A fetch or XHR whose body is still arriving this long after its headers is a stream (or
 * a body nobody reads, which Chromium never finishes): the page has its answer by then.
 */
const BODY_MS = 300;
/**
 * A request to an address that answered at least this long ago is a poll; sooner, it is
 * the next step of a chain (a cursor, the next page), which a page asks for as soon as the
 * last step arrived.
 */
const POLL_GAP_MS = 80;
/** The longest the DOM alone may hold the render after the last work ended. */
const DOM_TAIL_MS = 1_000;
/** How often the page is probed while work is pending. */
const PROBE_EVERY_MS = 25;

/** Resource types whose requests are work (Playwright's names). */
const WORK = new Set(['fetch', 'xhr', 'script', 'document']);
const READ_BY_SCRIPT = new Set(['fetch', 'xhr']);

interface InFlight {
  started: number;
  /** When its headers arrived, for a fetch or XHR. */
  answered?: number;
}

/** The page's requests in flight, from before the navigation to the end of the settle. */
export class PendingRequests {
  private readonly inFlight = new Map<Request, InFlight>();
  /** When each address last answered (headers or end). */
  private readonly answered = new Map<string, number>();
  /** Date.now() when work last ended. */
  lastEnded = 0;

  private constructor(private readonly page: Page) {
    page.on('request', this.onRequest);
    page.on('response', this.onResponse);
    page.on('requestfinished', this.onEnd);
    page.on('requestfailed', this.onEnd);
  }

  static watch(page: Page): PendingRequests {
    return new PendingRequests(page);
  }

  /** Requests that are still work at `now`. */
  count(now: number): number {
    let n = 0;
    for (const [request, { started, answered }] of this.inFlight) {
      const open =
        answered === undefined ? now - started < OPEN_REQUEST_MS : now - answered < BODY_MS;
      if (open) n++;
      else this.inFlight.delete(request);
    }
    return n;
  }

  stop(): void {
    this.page.off('request', this.onRequest);
    this.page.off('response', this.onResponse);
    this.page.off('requestfinished', this.onEnd);
    this.page.off('requestfailed', this.onEnd);
    this.inFlight.clear();
  }

  private readonly onRequest = (request: Request) => {
    if (!WORK.has(request.resourceType())) return;
    const now = Date.now();
    const last = this.answered.get(addressOf(request));
    const poll = last !== undefined && now - last >= POLL_GAP_MS;
    if (!poll || request.isNavigationRequest()) this.inFlight.set(request, { started: now });
  };

  private readonly onResponse = (response: Response) => {
    const request = response.request();
    if (!WORK.has(request.resourceType())) return;
    this.answered.set(addressOf(request), Date.now());
    const flight = this.inFlight.get(request);
    const type = response.headers()['content-type'] ?? '';
    if (type.startsWith('text/event-stream')) this.end(request);
    else if (flight && READ_BY_SCRIPT.has(request.resourceType())) flight.answered = Date.now();
  };

  private readonly onEnd = (request: Request) => {
    if (WORK.has(request.resourceType())) this.answered.set(addressOf(request), Date.now());
    this.end(request);
  };

  private end(request: Request): void {
    if (this.inFlight.delete(request)) this.lastEnded = Date.now();
  }
}

/** A request's method and address without its query: a poll varies the query, if anything. */
function addressOf(request: Request): string {
  const url = request.url();
  const query = url.search(/[?#]/);
  return `${request.method()} ${query === -1 ? url : url.slice(0, query)}`;
}

export interface SettleTarget {
  readonly page: Page;
  /** The isolated world's report, or null while the document is not there to ask. */
  probeSettle(): Promise<SettleProbe | null>;
}

/**
 * Waits, after `load`, until the page has settled or `maxMs` passed (within the budget,
 * keeping `reserveMs` of it for the output). Never throws for a busy page: it is taken as
 * it is at the cap.
 */
export async function settle(
  target: SettleTarget,
  requests: PendingRequests,
  budget: Budget,
  limits: { maxMs: number; reserveMs: number },
): Promise<void> {
  const loadedAt = Date.now();
  const end = loadedAt + Math.min(limits.maxMs, budget.remaining() - limits.reserveMs);
  let workEnded = 0;
  for (let now = loadedAt; now < end; now = Date.now()) {
    const probe = await budget.race(target.probeSettle());
    now = Date.now();
    // A document that cannot be asked (no HTML, nothing to observe) is judged by its requests.
    const page = probe ?? { loaded: true, sinceChangeMs: null, timers: false, refreshing: false };
    if (requests.count(now) > 0 || !page.loaded || page.timers || page.refreshing) {
      workEnded = now;
    } else {
      workEnded = Math.max(workEnded, requests.lastEnded > loadedAt ? requests.lastEnded : 0);
      const sinceWork = workEnded === 0 ? Number.POSITIVE_INFINITY : now - workEnded;
      const quiet = Math.min(sinceWork, page.sinceChangeMs ?? Number.POSITIVE_INFINITY);
      if (quiet >= QUIET_MS || now - Math.max(workEnded, loadedAt) >= DOM_TAIL_MS) return;
    }
    // Not aborted by the request's signal (a listener per turn would pile up on it): the
    // next turn's race ends the wait when the caller has gone.
    await delay(PROBE_EVERY_MS);
  }
}
