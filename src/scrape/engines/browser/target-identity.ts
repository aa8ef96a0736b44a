/**
 * The identity in every target of a page, not only its main frame: dedicated workers
 * (also those of frames and of other workers), out-of-process (cross-site) frames and
 * shared workers.
 *
 * Playwright attaches to each of those targets itself, sets the context's user agent there
 * with client hints it derives from the UA string (no brands: `userAgentData.brands` reads
 * `[]`), and resumes the target (`Runtime.runIfWaitingForDebugger`) at once. A CDP client of
 * ours attached to the same target cannot hold it: one session's resume starts it, so our
 * overrides would race the target's first script. Nor do a page's CDP overrides and init
 * scripts reach its workers.
 *
 * So the two places where Playwright prepares such a target, `_updateUserAgent` and
 * `_initializeWorker` of its Chromium frame session, are replaced on this page's own
 * server-side objects (reached through the in-process connection's `toImpl`). Our commands
 * then go out on the target's own session before Playwright's resume, and CDP runs one
 * session's commands in order: they are in place before the target runs a line. No other
 * page and nothing global is touched. These are playwright-core internals
 * (playwright-internals.ts); if their shape changes, `presentInEveryTarget` throws rather
 * than let renders show the automation identity (stealth-targets.test.ts).
 * Chose this over patching playwright-core's files: it needs no install step and the same
 * internals either way.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type CdpSession, implOf, internalsChanged, serverPageOf } from './playwright-internals.js';

/** What each target is given, read when the target appears (the languages change per scrape). */
export interface TargetIdentity {
  /** CDP's Emulation.setUserAgentOverride: user agent, Accept-Language, platform, hints. */
  userAgentOverride: object;
  locale: string;
  hardwareConcurrency: number;
  /** Run in each worker before its own script (page-patches.ts: platform, deviceMemory, WebGL). */
  workerScript: string;
}

type TargetSession = CdpSession;

/** The browser's root CRSession: Target.attachedToTarget arrives here for browser-level targets. */
interface RootSession {
  emit(event: string, params: unknown): boolean;
  createChildSession(sessionId: string): TargetSession;
}

interface AttachedToTarget {
  sessionId: string;
  targetInfo: { type: string; browserContextId?: string };
}

/** Playwright's Chromium FrameSession: one per page or out-of-process frame target. */
interface FrameSession {
  _client: TargetSession;
  _updateUserAgent(session?: TargetSession): Promise<void>;
  _initializeWorker(session: TargetSession, event: unknown): void;
}

/**
 * From now on, every out-of-process frame and worker of `page` gets `current()`'s identity
 * before it runs. Call it right after the page is created (it is then about:blank, with no
 * other target yet).
 */
export function presentInEveryTarget(page: Page, current: () => TargetIdentity): void {
  const server = serverPageOf(page);
  if (!server?._mainFrameSession || !(server._sessions instanceof Map)) {
    throw new Error(UNSUPPORTED);
  }
  presentInFrameSession(server._mainFrameSession as FrameSession, current);
  const sessions = server._sessions as Map<string, FrameSession>;
  const set = sessions.set.bind(sessions);
  // Playwright registers an out-of-process frame's session before initializing it.
  sessions.set = (targetId, frameSession) => {
    presentInFrameSession(frameSession, current);
    return set(targetId, frameSession);
  };
}

function presentInFrameSession(frameSession: FrameSession, current: () => TargetIdentity): void {
  if (
    typeof frameSession._updateUserAgent !== 'function' ||
    typeof frameSession._initializeWorker !== 'function'
  ) {
    throw new Error(UNSUPPORTED);
  }
  // Called for the frame's own target and, since the context has a user agent, for each
  // worker (`_initializeWorker`), in both cases before the target is resumed.
  frameSession._updateUserAgent = async (session = frameSession._client) => {
    const identity = current();
    void session._sendMayFail('Emulation.setLocaleOverride', { locale: identity.locale });
    void session._sendMayFail('Emulation.setHardwareConcurrencyOverride', {
      hardwareConcurrency: identity.hardwareConcurrency,
    });
    await session.send('Emulation.setUserAgentOverride', identity.userAgentOverride);
  };
  const initializeWorker = frameSession._initializeWorker;
  frameSession._initializeWorker = (session, event) => {
    void session._sendMayFail('Runtime.evaluate', { expression: current().workerScript });
    initializeWorker.call(frameSession, session, event);
  };
}

/**
 * Shared workers of the browser's contexts get their context's identity. A shared worker
 * belongs to the browser, not to a page: Playwright attaches to it at the browser level
 * and detaches at once, so it would run as Chromium itself (a `HeadlessChrome` user
 * agent, Chromium's brands, Linux, this host's languages, memory and cores). Instead, the
 * attach event of a shared worker of a registered context is taken over: its session gets
 * the overrides and the worker script before it is resumed, and stays attached, since CDP
 * drops a session's overrides when it detaches. Playwright disposes the session when the
 * worker ends. One per browser.
 */
export class SharedWorkerIdentities {
  private readonly contexts = new Map<string, () => TargetIdentity>();

  constructor(browser: Browser) {
    const root = implOf<{ _session?: RootSession }>(browser)?._session;
    if (typeof root?.emit !== 'function' || typeof root.createChildSession !== 'function') {
      throw new Error(UNSUPPORTED);
    }
    const emit = root.emit;
    root.emit = (event, params) => {
      if (event === 'Target.attachedToTarget' && this.present(root, params as AttachedToTarget)) {
        return true;
      }
      return emit.call(root, event, params);
    };
  }

  /** Shared workers of `context` get `current()`'s identity until the returned stop is called. */
  add(context: BrowserContext, current: () => TargetIdentity): () => void {
    const id = implOf<{ _browserContextId?: string }>(context)?._browserContextId;
    if (typeof id !== 'string') throw new Error(UNSUPPORTED);
    this.contexts.set(id, current);
    return () => this.contexts.delete(id);
  }

  private present(root: RootSession, event: AttachedToTarget): boolean {
    const { targetInfo } = event;
    if (targetInfo.type !== 'shared_worker' || targetInfo.browserContextId === undefined) {
      return false;
    }
    const current = this.contexts.get(targetInfo.browserContextId);
    if (!current) return false;
    const identity = current();
    const session = root.createChildSession(event.sessionId);
    void session._sendMayFail('Emulation.setUserAgentOverride', identity.userAgentOverride);
    void session._sendMayFail('Emulation.setLocaleOverride', { locale: identity.locale });
    void session._sendMayFail('Emulation.setHardwareConcurrencyOverride', {
      hardwareConcurrency: identity.hardwareConcurrency,
    });
    void session._sendMayFail('Runtime.evaluate', { expression: identity.workerScript });
    void session._sendMayFail('Runtime.runIfWaitingForDebugger');
    return true;
  }
}

const UNSUPPORTED = internalsChanged(
  'workers and frames would show the automation identity',
  'target-identity.ts',
).message;
