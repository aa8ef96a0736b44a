/**
 * Counts the decoded bytes a page receives during a render (MAX_BODY_BYTES, issue 24): its
 * document and every sub-resource, in its main frame, its out-of-process frames and its
 * workers. A 100 MB page or a gzip bomb (1 GiB of zeros in 1 MB) otherwise streams into
 * Chromium until the budget ends, and the renderer grows by gigabytes.
 *
 * The count is CDP's `Network.dataReceived` `dataLength`: the bytes after Chromium undid
 * the content encoding, so a bomb counts for what it inflates to. Playwright enables the
 * Network domain on each of the page's target sessions (its network manager's
 * `addSession`), so the events already arrive on its sessions: listening there costs no
 * extra CDP traffic, and a session of our own would only see the main frame's target.
 * playwright-internals.ts says why reaching those sessions is acceptable.
 */
import type { Page } from 'playwright-core';
import { type CdpSession, internalsChanged, serverPageOf } from './playwright-internals.js';

/** Playwright's CRNetworkManager, as far as used here. */
interface NetworkManager {
  _sessions: Map<CdpSession, unknown>;
  addSession(session: CdpSession, ...rest: unknown[]): Promise<void>;
}

interface DataReceived {
  dataLength: number;
}

export class PageBytes {
  private received = 0;
  private limit = Number.POSITIVE_INFINITY;
  private onExceeded: (() => void) | null = null;

  /** Starts counting for `page`'s sessions, present and future. Call once, on a new page. */
  static watch(page: Page): PageBytes {
    const manager = serverPageOf(page)?._networkManager as Partial<NetworkManager> | undefined;
    const addSession = manager?.addSession;
    if (!manager || !(manager._sessions instanceof Map) || typeof addSession !== 'function') {
      throw internalsChanged('renders would have no size bound', 'page-bytes.ts');
    }
    const bytes = new PageBytes();
    const listen = (session: CdpSession) =>
      session.on('Network.dataReceived', (event: DataReceived) => bytes.add(event.dataLength));
    for (const session of manager._sessions.keys()) listen(session);
    manager.addSession = (session, ...rest) => {
      listen(session);
      return addSession.call(manager, session, ...rest);
    };
    return bytes;
  }

  /** Counts from zero for one render; `onExceeded` runs once, when `limit` is passed. */
  arm(limit: number, onExceeded: () => void): void {
    this.received = 0;
    this.limit = limit;
    this.onExceeded = onExceeded;
  }

  /** Stops reporting (between renders the page only loads what the reset stops). */
  disarm(): void {
    this.limit = Number.POSITIVE_INFINITY;
    this.onExceeded = null;
  }

  private add(length: number): void {
    if (!(length > 0)) return;
    this.received += length;
    if (this.received <= this.limit || this.onExceeded === null) return;
    const exceeded = this.onExceeded;
    this.onExceeded = null;
    exceeded();
  }
}
