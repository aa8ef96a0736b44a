/**
 * The warm browsers and their warm pages. Limits (all in options.ts): `browsers` Chromium
 * processes, each retired (drained, then closed) after `retireAfterContexts` contexts; warm
 * pages reused `pageReuseLimit` times or until they routed `pageRequestLimit` requests; at
 * most `maxConcurrentPages` idle pages kept; every browser operation bounded by
 * `operationTimeoutMs`. A browser that crashes or is killed fails only the pages it was
 * serving; the next acquire launches a replacement.
 */
import type { Browser } from 'playwright-core';
import { appError } from '../../../errors.js';
import type { Budget } from './budget.js';
import { GUARDED_CHROMIUM_ARGS, launchChromium } from './chromium-process.js';
import type { ContextNetwork } from './context-network.js';
import type { ResolvedBrowserOptions } from './options.js';
import type { ContextProfile } from './page-profile.js';
import { SharedWorkerIdentities } from './target-identity.js';
import { WarmPage } from './warm-page.js';

class ManagedBrowser {
  contextsCreated = 0;
  draining = false;
  dead = false;
  readonly active = new Set<WarmPage>();
  readonly idle: WarmPage[] = [];

  /** Shared workers of this browser's contexts present their context's identity. */
  readonly sharedWorkers: SharedWorkerIdentities;

  constructor(
    readonly browser: Browser,
    readonly pid: number | null,
  ) {
    this.sharedWorkers = new SharedWorkerIdentities(browser);
  }
}

export interface BrowserPoolStats {
  browsersUp: number;
  pids: number[];
  idlePages: number;
  launches: number;
  contextsCreated: number;
  /** Resets that emptied the page's document without navigating (warm-page.ts). */
  resetsInPlace: number;
  crashes: number;
  /** Contexts and tabs open in Chromium right now (leak check). */
  openContexts: number;
  openPages: number;
}

export class BrowserPool {
  private readonly browsers: ManagedBrowser[] = [];
  private launching: Promise<ManagedBrowser> | null = null;
  /** Pages being reset after a request, with the promise of the reset's end. */
  private readonly resetting = new Map<WarmPage, Promise<void>>();
  private closed = false;
  private launches = 0;
  private contextsCreated = 0;
  private resetsInPlace = 0;
  private crashes = 0;

  constructor(private readonly options: ResolvedBrowserOptions) {}

  /**
   * A warm page for this key: an idle one if any, else a new context with this profile
   * whose way out `network()` opens (only called when a context is created). The key must
   * name the profile: an idle page is reused for its key alone.
   */
  async acquire(
    key: string,
    profile: ContextProfile,
    network: () => ContextNetwork,
    budget: Budget,
  ): Promise<WarmPage> {
    if (this.closed) throw appError('NOT_READY', 'the browser pool is shut down');
    for (;;) {
      const idle = this.takeIdle(key);
      if (idle) return idle;
      // A page of this key finishing its reset (tens of ms) beats a new context (~0.4 CPU-s).
      const resets = [...this.resetting]
        .filter(([page]) => page.key === key)
        .map(([, done]) => done);
      if (resets.length === 0) break;
      await budget.race(Promise.race(resets));
    }
    const managed = await this.pickBrowser(budget);
    managed.contextsCreated += 1;
    this.contextsCreated += 1;
    if (managed.contextsCreated >= this.options.retireAfterContexts) managed.draining = true;
    const settings = {
      serviceWorkers: this.options.serviceWorkers,
      guardRedirects: !this.options.allowPrivateNetworks,
      operationTimeoutMs: this.options.operationTimeoutMs,
    };
    const creating = WarmPage.create(managed, key, network(), settings, profile);
    const page = await budget.race(creating, this.opCap('creating a page')).catch((error) => {
      void creating.then(
        (p) => p.close(),
        () => {},
      );
      this.retireIfDone(managed);
      throw error;
    });
    managed.active.add(page);
    if (managed.dead) page.fail('the browser exited');
    return page;
  }

  private takeIdle(key: string): WarmPage | null {
    for (const managed of this.browsers) {
      if (managed.dead || managed.draining) continue;
      const index = managed.idle.findIndex((p) => p.key === key);
      if (index < 0) continue;
      const [page] = managed.idle.splice(index, 1);
      managed.active.add(page!);
      return page!;
    }
    return null;
  }

  /**
   * Ends the pages whose key ends with `suffix` (a sticky session's, when it ends): idle
   * ones close now, busy ones are closed when released.
   */
  discard(suffix: string): void {
    for (const managed of this.browsers) {
      for (const page of managed.active) if (page.key.endsWith(suffix)) page.tainted = true;
      for (const page of managed.idle.filter((p) => p.key.endsWith(suffix))) {
        managed.idle.splice(managed.idle.indexOf(page), 1);
        void page.close();
      }
    }
  }

  /** Returns a page after a request: reset and kept warm when clean, else closed. */
  async release(page: WarmPage): Promise<void> {
    const managed = this.browsers.find((b) => b.active.has(page));
    if (!managed) return void (await page.close());
    page.uses += 1;
    const keep =
      !this.closed &&
      !managed.dead &&
      !managed.draining &&
      !page.tainted &&
      page.uses < this.options.pageReuseLimit &&
      page.requests < this.options.pageRequestLimit;
    if (keep) {
      const done = withCap(page.reset(), this.options.operationTimeoutMs).then(
        (how) => {
          if (how === 'in place') this.resetsInPlace += 1;
        },
        () => {
          page.tainted = true;
        },
      );
      this.resetting.set(page, done);
      await done;
    }
    managed.active.delete(page);
    if (keep && !page.tainted && !managed.dead) {
      managed.idle.push(page);
      this.resetting.delete(page);
      this.trimIdle();
    } else {
      this.resetting.delete(page);
      await page.close();
    }
    this.retireIfDone(managed);
  }

  private trimIdle(): void {
    const idle = this.browsers.flatMap((b) => b.idle);
    let excess = idle.length - this.options.maxConcurrentPages;
    for (const managed of this.browsers) {
      while (excess > 0 && managed.idle.length > 0) {
        void managed.idle.shift()!.close();
        excess -= 1;
      }
    }
  }

  private async pickBrowser(budget: Budget): Promise<ManagedBrowser> {
    const usable = this.browsers.filter((b) => !b.dead && !b.draining);
    if (usable.length >= this.options.browsers || (usable.length > 0 && this.launching)) {
      return usable.reduce((a, b) => (b.active.size < a.active.size ? b : a));
    }
    this.launching ??= this.launch().finally(() => {
      this.launching = null;
    });
    return budget.race(this.launching, this.opCap('launching Chromium'));
  }

  private async launch(): Promise<ManagedBrowser> {
    const { executablePath, extraArgs, operationTimeoutMs, allowPrivateNetworks } = this.options;
    const args = allowPrivateNetworks ? extraArgs : [...GUARDED_CHROMIUM_ARGS, ...extraArgs];
    let launched: Awaited<ReturnType<typeof launchChromium>>;
    try {
      launched = await launchChromium(executablePath, args, operationTimeoutMs);
    } catch (error) {
      const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
      throw appError('BROWSER_FAILED', `could not start Chromium: ${reason}`);
    }
    this.launches += 1;
    const managed = new ManagedBrowser(launched.browser, launched.pid);
    launched.browser.on('disconnected', () => this.onDisconnected(managed));
    this.browsers.push(managed);
    if (this.closed) await launched.browser.close();
    return managed;
  }

  private onDisconnected(managed: ManagedBrowser): void {
    if (!managed.draining && !this.closed) this.crashes += 1;
    managed.dead = true;
    for (const page of managed.active) page.fail('the browser exited');
    // Closing gives their guard tickets back (the contexts themselves are gone already).
    for (const page of managed.idle.splice(0)) void page.close();
    const index = this.browsers.indexOf(managed);
    if (index >= 0) this.browsers.splice(index, 1);
  }

  /** A draining browser closes once its last page is back. */
  private retireIfDone(managed: ManagedBrowser): void {
    if (!managed.draining || managed.dead || managed.active.size > 0) return;
    managed.dead = true;
    for (const page of managed.idle.splice(0)) void page.close();
    void withCap(managed.browser.close(), this.options.operationTimeoutMs).catch(() => {});
  }

  private opCap(what: string): { ms: number; onCap: () => Error } {
    return {
      ms: this.options.operationTimeoutMs,
      onCap: () =>
        appError(
          'BROWSER_FAILED',
          `${what} took longer than ${this.options.operationTimeoutMs} ms`,
        ),
    };
  }

  stats(): BrowserPoolStats {
    const live = this.browsers.filter((b) => !b.dead);
    return {
      browsersUp: live.length,
      pids: live.flatMap((b) => (b.pid === null ? [] : [b.pid])),
      idlePages: live.reduce((n, b) => n + b.idle.length, 0),
      launches: this.launches,
      contextsCreated: this.contextsCreated,
      resetsInPlace: this.resetsInPlace,
      crashes: this.crashes,
      openContexts: live.reduce((n, b) => n + b.browser.contexts().length, 0),
      openPages: live.reduce(
        (n, b) => n + b.browser.contexts().reduce((m, c) => m + c.pages().length, 0),
        0,
      ),
    };
  }

  /** Starts the first browser now instead of on the first request. */
  async warmUp(budget: Budget): Promise<void> {
    await this.pickBrowser(budget);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.launching?.catch(() => {});
    const all = this.browsers.splice(0);
    await Promise.all(
      all.map(async (managed) => {
        managed.draining = true;
        managed.dead = true;
        await withCap(managed.browser.close(), this.options.operationTimeoutMs).catch(() => {});
      }),
    );
  }
}

/** Rejects when `work` takes longer than `ms` (the work itself keeps running). */
function withCap<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`browser operation took longer than ${ms} ms`)), ms);
  });
  return Promise.race([work, cap]).finally(() => clearTimeout(timer));
}
