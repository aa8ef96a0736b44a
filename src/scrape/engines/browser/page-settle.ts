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
 *
 * Every window above is measured on an observed clock, not the wall's: a turn of probing that
 * took longer than a turn takes (a renderer, a site or this process starved of CPU) is time in
 * which nothing could be seen, and it does not count towards a window. On a busy machine a
 * request the page sent as it loaded, still unanswered when a probe came back 1.3 s late,
 * counted as held open by design, and the page's content was never waited for.
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { Page } from 'playwright-core';
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
 * A request to an address that answered `POLL_AFTER` times already, the last at least
 * `POLL_GAP_MS` ago, is a poll; sooner, it is the next step of a chain (a cursor, the next
 * page), which a page asks for as soon as the last step arrived. Not the gap alone: on a
 * busy machine a chain's next step can come late, and a chain's content is the answer.
 */
const POLL_AFTER = 3;
const POLL_GAP_MS = 80;
/** The longest the DOM alone may hold the render after the last work ended. */
const DOM_TAIL_MS = 1_000;
/** How often the page is probed while work is pending. */
const PROBE_EVERY_MS = 25;
/**
 * What a turn of probing may take beyond its pause before the rest is time nobody saw: far
 * above a probe's round trip on a machine with CPU to spare (about 1 ms), so there the
 * observed clock is the wall's.
 */
const TURN_SLACK_MS = 25;

/** Resource types whose requests are work (CDP's names). */
const WORK = new Set(['Document', 'Script', 'XHR', 'Fetch']);
const READ_BY_SCRIPT = new Set(['XHR', 'Fetch']);

interface InFlight {
  address: string;
  readByScript: boolean;
  /** A document: its end needs no quiet window (its load is what the probe waits for). */
  document: boolean;
  started: number;
  /** When its headers arrived, for a fetch or XHR. */
  answered?: number;
  responded?: boolean;
}

/** The CDP events read here (Network domain), as far as used. */
interface SentEvent {
  requestId: string;
  type?: string;
  request: { url: string; method: string };
}
interface ResponseEvent {
  requestId: string;
  response: { mimeType: string };
}
interface EndEvent {
  requestId: string;
}

/** The page's CDP session, as far as used (Playwright's CDPSession). */
export interface NetworkSession {
  send(method: 'Network.enable', params?: object): Promise<unknown>;
  on(event: string, listener: (event: never) => void): unknown;
  off(event: string, listener: (event: never) => void): unknown;
}

/**
 * The page's requests in flight, from before the navigation to the end of the settle. Read
 * from the Network domain on the same CDP session as the probes, not from Playwright's
 * request events: the renderer announces a request on the session as the page sends it, so
 * a probe's answer never overtakes a request the page sent before it (Playwright's event
 * waits for its route, and a page that fetched in its load handler looked idle).
 */
export class PendingRequests {
  private readonly inFlight = new Map<string, InFlight>();
  /** When each address last answered (headers or end), and how many times. */
  private readonly answered = new Map<string, { at: number; times: number }>();
  /** When work last ended, on the observed clock. */
  lastEnded = 0;
  /** Wall time in turns of probing that took too long to see anything (settle). */
  private unseenMs = 0;

  private constructor(private readonly session: NetworkSession) {}

  /** Watches a session whose Network domain is on (`enableNetwork`). */
  static watch(session: NetworkSession): PendingRequests {
    const requests = new PendingRequests(session);
    session.on('Network.requestWillBeSent', requests.onRequest);
    session.on('Network.responseReceived', requests.onResponse);
    session.on('Network.loadingFinished', requests.onEnd);
    session.on('Network.loadingFailed', requests.onEnd);
    return requests;
  }

  /**
   * Turns the domain on for the session's life: once per page, not twice per render (two
   * round trips a render measurably cost a static page). Bodies are Playwright's business:
   * this session keeps none.
   */
  static async enableNetwork(session: NetworkSession): Promise<void> {
    await session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
  }

  /** The observed clock: the wall's, less the time nothing could be seen. */
  now(): number {
    return Date.now() - this.unseenMs;
  }

  /** A turn of probing that took `tookMs`, of which `expectedMs` is its own pause. */
  noteTurn(tookMs: number, expectedMs: number): void {
    this.unseenMs += Math.max(0, tookMs - expectedMs - TURN_SLACK_MS);
  }

  /** Requests that are still work at `now` (the observed clock). */
  count(now: number): number {
    let n = 0;
    for (const [id, { started, answered }] of this.inFlight) {
      const open =
        answered === undefined ? now - started < OPEN_REQUEST_MS : now - answered < BODY_MS;
      if (open) n++;
      else this.inFlight.delete(id);
    }
    return n;
  }

  stop(): void {
    this.session.off('Network.requestWillBeSent', this.onRequest);
    this.session.off('Network.responseReceived', this.onResponse);
    this.session.off('Network.loadingFinished', this.onEnd);
    this.session.off('Network.loadingFailed', this.onEnd);
    this.inFlight.clear();
  }

  private readonly onRequest = (event: SentEvent) => {
    if (!event.type || !WORK.has(event.type)) return;
    const now = this.now();
    const address = addressOf(event.request.method, event.request.url);
    const last = this.answered.get(address);
    const poll = last !== undefined && last.times >= POLL_AFTER && now - last.at >= POLL_GAP_MS;
    // A redirect hop comes with the same id: the request goes on, from now.
    if (!poll || event.type === 'Document')
      this.inFlight.set(event.requestId, {
        address,
        readByScript: READ_BY_SCRIPT.has(event.type),
        document: event.type === 'Document',
        started: now,
      });
  };

  private readonly onResponse = (event: ResponseEvent) => {
    const flight = this.inFlight.get(event.requestId);
    if (!flight) return;
    this.noteAnswer(flight);
    if (event.response.mimeType === 'text/event-stream') this.end(event.requestId);
    else if (flight.readByScript) flight.answered = this.now();
  };

  private readonly onEnd = (event: EndEvent) => {
    const flight = this.inFlight.get(event.requestId);
    if (!flight) return;
    // A request that had headers was counted then; one that failed before has its answer now.
    if (!flight.responded) this.noteAnswer(flight);
    this.end(event.requestId);
  };

  private noteAnswer(flight: InFlight): void {
    flight.responded = true;
    const times = (this.answered.get(flight.address)?.times ?? 0) + 1;
    this.answered.set(flight.address, { at: this.now(), times });
  }

  private end(id: string): void {
    // The main document's end often reaches us after its load event: no work of the page's.
    const flight = this.inFlight.get(id);
    if (flight && this.inFlight.delete(id) && !flight.document) this.lastEnded = this.now();
  }
}

/** A request's method and address without its query: a poll varies the query, if anything. */
function addressOf(method: string, url: string): string {
  const query = url.search(/[?#]/);
  return `${method} ${query === -1 ? url : url.slice(0, query)}`;
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
  // The cap is the wall's (the caller waits by it); every window is the observed clock's.
  const start = Date.now();
  const end = start + Math.min(limits.maxMs, budget.remaining() - limits.reserveMs);
  const loadedAt = requests.now();
  let workEnded = 0;
  let seen = start;
  let pause = 0;
  for (let wall = start; wall < end; wall = Date.now()) {
    // A renderer too busy to answer within the window ends the settle, not the scrape.
    const late = () => Object.assign(new Error('the page did not answer'), { name: 'LateProbe' });
    const probe = await budget
      .race(target.probeSettle(), { ms: end - wall, onCap: late })
      .catch((error: unknown) => {
        if (error instanceof Error && error.name === 'LateProbe') return 'late' as const;
        throw error;
      });
    if (probe === 'late') return;
    const answered = Date.now();
    requests.noteTurn(answered - seen, pause);
    seen = answered;
    const now = requests.now();
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
    pause = PROBE_EVERY_MS;
  }
}
