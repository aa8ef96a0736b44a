/**
 * Rejects cookie-consent pop-ups in the browser with DuckDuckGo's autoconsent (MPL-2.0): its
 * content script runs in every frame, detects the consent platform (OneTrust, Cookiebot,
 * Didomi, ~800 rules) and clicks through the OPT-OUT path, or closes/hides the pop-up. It is
 * configured with `autoAction: 'optOut'` only, so it never accepts.
 *
 * Wiring (autoconsent's own Playwright runner, playwright/runner.ts, does the same): the page
 * gets a binding `autoconsentSendMessage` that the content script calls with its messages;
 * we answer `init` with the config and the rules filtered for the frame's URL, run `eval`
 * requests in the frame, and record results to know when it has settled.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { filterCompactRules } from '@duckduckgo/autoconsent';
import type { CDPSession, Frame, Page } from 'playwright-core';

type CompactRules = Parameters<typeof filterCompactRules>[0];

/** The content script and rules, read from the installed package once and shared. */
export interface ConsentRejectorAssets {
  contentScript: string;
  compactRules: CompactRules;
}

/** What autoconsent reported for the page, for logs and the caller's decision to wait. */
export interface ConsentOutcome {
  /** CMPs detected (any frame). */
  detected: string[];
  /** An opt-out ran and succeeded / failed (null: none ran). */
  optOut: boolean | null;
  /** Autoconsent found a platform's pop-up open (any frame). */
  popupShown: boolean;
  /** Autoconsent finished in some frame. */
  done: boolean;
  /** The wait ended because the budget ran out. */
  timedOut: boolean;
}

/** One render's consent rejection: what autoconsent did in the documents of that render. */
export interface ConsentRejection {
  readonly outcome: ConsentOutcome;
  /**
   * Resolves when autoconsent has finished (opted out or closed the pop-up), or when no
   * consent platform is there to wait for, or after `budgetMs`, whichever comes first.
   * Never rejects. An open pop-up is always waited for (bounded).
   * @param quietMs default 1500: while a banner may be in the page (`bannerInPage`), how long
   *   autoconsent gets after detection started in the main frame (or after this call) to
   *   detect it: autoconsent retries detection on DOM mutations without end, so "nothing
   *   found" is only ever a quiet period.
   * @param bannerInPage default true (the caller cannot tell). False when the caller looked
   *   (the cookie-notice list matches nothing visible in the page): unless autoconsent found
   *   a pop-up open, it resolves at once, neither waiting out the quiet period nor for a
   *   platform whose script is there but whose banner is not shown.
   */
  settled(budgetMs: number, quietMs?: number, bannerInPage?: boolean): Promise<ConsentOutcome>;
}

/**
 * The rejector installed on a page: its binding and content script stay for the page's life
 * (Chromium cannot remove either), so the page is kept for renders that want rejection, each
 * switching it on with `begin()`. Between renders (`end()`) autoconsent is not answered, so
 * it never starts in whatever document the page holds.
 * The first rejection is begun by the install, so a page used once needs no `begin()`.
 */
export interface ConsentRejector extends ConsentRejection {
  begin(): ConsentRejection;
  end(): void;
}

/** Reads `dist/autoconsent.playwright.js` and `rules/compact-rules.json`: both hidden by exports. */
export function loadConsentRejectorAssets(): ConsentRejectorAssets {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve('@duckduckgo/autoconsent/rules/rules.json'));
  const pkg = dirname(dir);
  return {
    contentScript: readFileSync(join(pkg, 'dist', 'autoconsent.playwright.js'), 'utf8'),
    compactRules: JSON.parse(readFileSync(join(dir, 'compact-rules.json'), 'utf8')) as CompactRules,
  };
}

const CONFIG = {
  enabled: true,
  autoAction: 'optOut',
  disabledCmps: [],
  // Prehide hides known banners before detection; off as in autoconsent's own runner, so that
  // the pop-up stays visible for detection and the click that rejects it.
  enablePrehide: false,
  enableCosmeticRules: true,
  enableGeneratedRules: true,
  enableHeuristicDetection: false,
  detectRetries: 20,
  // It is: an init script runs in the page's world. Its eval rules (is `window.Cookiebot`
  // there?) then run inline, not as a message, an evaluation and an answer each.
  isMainWorld: true,
  visualTest: false,
  logs: {
    lifecycle: false,
    rulesteps: false,
    detectionsteps: false,
    evals: false,
    errors: false,
    messages: false,
    waits: false,
  },
} as const;

interface Message {
  type: string;
  id?: string;
  code?: string;
  cmp?: string;
  result?: boolean;
  mainFrame?: boolean;
  state?: { lifecycle?: string };
}

/**
 * Runs `expression` in the frame's page world. The main frame's goes straight through CDP:
 * Playwright's `evaluate` first loads its own script into each new document, which on a
 * small page costs as much as the rest of the rejector (bench/render-blockers.ts).
 */
async function evaluateIn(frame: Frame, cdp: CDPSession, expression: string): Promise<unknown> {
  if (frame.parentFrame() !== null) return await frame.evaluate(expression);
  const answer = await cdp.send('Runtime.evaluate', {
    expression,
    returnByValue: true,
    awaitPromise: true,
  });
  if (answer.exceptionDetails) throw new Error('the expression threw');
  return answer.result.value;
}

async function reply(frame: Frame, cdp: CDPSession, message: object): Promise<void> {
  try {
    await evaluateIn(frame, cdp, `autoconsentReceiveMessage(${JSON.stringify(message)})`);
  } catch {
    // The frame navigated or was detached: its instance is gone, nothing to answer.
  }
}

/**
 * Installs the rejector on a page before its first navigation and begins its first
 * rejection. `settled(budgetMs)` lets the engine wait (bounded) before taking its output.
 * @param assets default: read from the installed package (pass shared assets to avoid re-reading)
 * @param scriptName the `sourceURL` its content script runs under, which the page's stack
 *   traces show for its frames: the render's settle uses it to tell autoconsent's own timers
 *   (its detection retries) from the page's
 */
export async function installConsentRejector(
  page: Page,
  assets: ConsentRejectorAssets = loadConsentRejectorAssets(),
  scriptName?: string,
): Promise<ConsentRejector> {
  let run = new Run();
  let active = true;
  const cdp = await page.context().newCDPSession(page);

  await page.exposeBinding('autoconsentSendMessage', async ({ frame }, raw: unknown) => {
    const msg = raw as Message;
    const current = active ? run : null;
    switch (msg.type) {
      case 'init':
        // Not answered between renders: that document's autoconsent waits, doing nothing.
        if (!current) return;
        await reply(frame, cdp, {
          type: 'initResp',
          config: CONFIG,
          rules: {
            autoconsent: [],
            compact: filterCompactRules(assets.compactRules, {
              url: frame.url(),
              mainFrame: frame.parentFrame() === null,
            }),
          },
        });
        break;
      case 'eval': {
        let result: unknown = false;
        try {
          result = await evaluateIn(frame, cdp, msg.code ?? 'false');
        } catch {
          // A failing eval rule is a negative answer, as in autoconsent's runner.
        }
        await reply(frame, cdp, { type: 'evalResp', id: msg.id, result });
        break;
      }
      default:
        current?.note(msg);
    }
  });
  const named = scriptName ? `\n//# sourceURL=${scriptName}\n` : '';
  await page.addInitScript({ content: `${REPORTS_READ}\n${assets.contentScript}${named}` });

  return {
    get outcome() {
      return run.outcome;
    },
    settled: (budgetMs, quietMs, bannerInPage) => run.settled(budgetMs, quietMs, bannerInPage),
    begin() {
      run.stop();
      run = new Run();
      active = true;
      return run;
    },
    end() {
      run.stop();
      active = false;
    },
  };
}

/** Lifecycle states after which a frame does nothing more. */
const FINAL = new Set(['nothingDetected', 'optOutSucceeded', 'optOutFailed', 'done']);
/** The lifecycle states `Run.note` reads from a report. */
const READ_STATES = ['started', ...FINAL];

/**
 * Put before the content script, in the same frame: autoconsent reports its whole state on
 * every change (each detection retry, every 500 ms), and each message is a binding call with
 * its answer, two CDP round trips. Only a main frame's report of a lifecycle state the run
 * reads, once per state, goes out; every other message goes out as it is.
 */
const REPORTS_READ = `(() => {
  const send = window.autoconsentSendMessage;
  if (typeof send !== 'function') return;
  const read = new Set(${JSON.stringify(READ_STATES)});
  let last = null;
  window.autoconsentSendMessage = (message) => {
    if (message && message.type === 'report') {
      const lifecycle = message.state && message.state.lifecycle;
      if (!message.mainFrame || lifecycle === last || !read.has(lifecycle)) return Promise.resolve();
      last = lifecycle;
    }
    return send(message);
  };
})();`;

/** What autoconsent reported during one render, and the waits on it. */
class Run implements ConsentRejection {
  readonly outcome: ConsentOutcome = {
    detected: [],
    optOut: null,
    popupShown: false,
    done: false,
    timedOut: false,
  };
  private mainFinal = false;
  private mainStartedAt = 0;
  private stopped = false;
  private readonly waiters = new Set<() => void>();

  note(msg: Message): void {
    const { outcome } = this;
    switch (msg.type) {
      case 'cmpDetected':
        if (msg.cmp && !outcome.detected.includes(msg.cmp)) outcome.detected.push(msg.cmp);
        break;
      case 'popupFound':
        outcome.popupShown = true;
        break;
      case 'optOutResult':
        outcome.optOut = msg.result === true;
        break;
      case 'autoconsentDone':
        outcome.done = true;
        break;
      case 'report':
        if (!msg.mainFrame) break;
        if (FINAL.has(msg.state?.lifecycle ?? '')) this.mainFinal = true;
        if (msg.state?.lifecycle === 'started' && this.mainStartedAt === 0)
          this.mainStartedAt = Date.now();
        break;
    }
    for (const wake of this.waiters) wake();
  }

  /** Ends every wait now: the render is over. */
  stop(): void {
    this.stopped = true;
    for (const wake of [...this.waiters]) wake();
  }

  // Done (opted out or closed), a failed opt-out, no banner to wait for, or a main frame
  // that found nothing.
  private isSettled(quietSince: number, quietMs: number, bannerInPage: boolean): boolean {
    const { outcome } = this;
    if (this.stopped || outcome.done || outcome.optOut === false) return true;
    if (outcome.popupShown) return false;
    if (!bannerInPage) return true;
    if (outcome.detected.length > 0) return false;
    if (this.mainFinal) return true;
    return (
      this.mainStartedAt > 0 && Date.now() - Math.max(this.mainStartedAt, quietSince) >= quietMs
    );
  }

  settled(budgetMs: number, quietMs = 1500, bannerInPage = true): Promise<ConsentOutcome> {
    const calledAt = Date.now();
    const { outcome } = this;
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters.delete(check);
        resolve(outcome);
      };
      const check = (): void => {
        if (this.isSettled(calledAt, quietMs, bannerInPage)) finish();
      };
      const timer = setTimeout(
        () => {
          outcome.timedOut = !this.isSettled(calledAt, quietMs, bannerInPage);
          finish();
        },
        Math.max(0, budgetMs),
      );
      // The quiet period ends without any message: look again now and then.
      const poll = setInterval(check, 100);
      this.waiters.add(check);
      check();
    });
  }
}
