/**
 * Sticky sessions (`session_id`): the scrapes of one account that name the same session
 * keep the proxy endpoint the first one was given, the same connection out (render=false:
 * one keep-alive connection, so one tunnel through the proxy; renders: the session's own
 * warm page, whose connections outlive its reset) and the same cookies (both
 * engines), until the session has been idle for `idleMs` (5 minutes). Sessions live in this
 * process: on several nodes a session sticks to the node that serves it.
 */
import type { Dispatcher } from 'undici';
import type { ProxyEndpoint, ProxyType } from '../types.js';

/** A session ends after this long without a scrape (issue 15). */
export const SESSION_IDLE_MS = 5 * 60_000;

/** A cookie as a browser context reports it (Playwright's shape, kept opaque here). */
export type SessionCookie = Record<string, unknown> & { name: string; value: string };

export interface Session {
  readonly accountId: string;
  readonly sessionId: string;
  readonly proxyType: ProxyType;
  readonly proxyCountry: string | null;
  /** The session's proxy (one element), or empty for a direct connection. */
  readonly proxies: readonly ProxyEndpoint[];
  /** render=false's own connection out, made on its first fetch. */
  dispatcher: Dispatcher | null;
  /** The same for its scrapes that skip certificate checks (skipTlsVerification). */
  lenientDispatcher: Dispatcher | null;
  /** The cookies the session's pages have set, for the next scrape of either engine. */
  cookies: SessionCookie[];
  lastUsed: number;
}

export interface SessionStoreOptions {
  idleMs?: number;
  now?: () => number;
}

export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  readonly #idleMs: number;
  readonly #now: () => number;
  readonly #sweeper: NodeJS.Timeout;
  readonly #endListeners = new Set<(session: Session) => void>();

  constructor(options: SessionStoreOptions = {}) {
    this.#idleMs = options.idleMs ?? SESSION_IDLE_MS;
    this.#now = options.now ?? Date.now;
    this.#sweeper = setInterval(() => this.sweep(), Math.min(this.#idleMs, 30_000));
    this.#sweeper.unref();
  }

  static keyOf(accountId: string, sessionId: string): string {
    return `${accountId}\n${sessionId}`;
  }

  /** The live session, or null (none, expired, or asked with another proxy type or country). */
  get(
    accountId: string,
    sessionId: string,
    proxyType?: ProxyType,
    proxyCountry?: string | null,
  ): Session | null {
    const key = SessionStore.keyOf(accountId, sessionId);
    const session = this.#sessions.get(key);
    if (!session) return null;
    if (this.#now() - session.lastUsed > this.#idleMs) {
      this.#end(key, session);
      return null;
    }
    if (proxyType !== undefined && session.proxyType !== proxyType) return null;
    if (proxyCountry !== undefined && session.proxyCountry !== proxyCountry) return null;
    return session;
  }

  /** The session, made with these proxies when there is none that fits. Marks it used. */
  open(
    accountId: string,
    sessionId: string,
    proxyType: ProxyType,
    proxyCountry: string | null,
    pick: () => readonly ProxyEndpoint[],
  ): Session {
    const key = SessionStore.keyOf(accountId, sessionId);
    let session = this.get(accountId, sessionId, proxyType, proxyCountry);
    if (!session) {
      const stale = this.#sessions.get(key);
      if (stale) this.#end(key, stale);
      session = {
        accountId,
        sessionId,
        proxyType,
        proxyCountry,
        proxies: Object.freeze(pick().slice(0, 1)),
        dispatcher: null,
        lenientDispatcher: null,
        cookies: [],
        lastUsed: this.#now(),
      };
      this.#sessions.set(key, session);
    }
    session.lastUsed = this.#now();
    return session;
  }

  /** Calls `listener` with each session that ends (idle, replaced, or the store closing). */
  onEnd(listener: (session: Session) => void): () => void {
    this.#endListeners.add(listener);
    return () => this.#endListeners.delete(listener);
  }

  touch(session: Session): void {
    session.lastUsed = this.#now();
  }

  get size(): number {
    return this.#sessions.size;
  }

  sweep(): void {
    const at = this.#now();
    for (const [key, session] of this.#sessions) {
      if (at - session.lastUsed > this.#idleMs) this.#end(key, session);
    }
  }

  #end(key: string, session: Session): void {
    this.#sessions.delete(key);
    for (const dispatcher of [session.dispatcher, session.lenientDispatcher]) {
      void dispatcher?.close().catch(() => {});
    }
    session.dispatcher = null;
    session.lenientDispatcher = null;
    for (const listener of this.#endListeners) listener(session);
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(
      all.flatMap((s) =>
        [s.dispatcher, s.lenientDispatcher].map((d) => d?.close().catch(() => {})),
      ),
    );
  }
}
