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
import type { Frame, Page } from 'playwright-core';

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
  /** Autoconsent finished in some frame. */
  done: boolean;
  /** The wait ended because the budget ran out. */
  timedOut: boolean;
}

export interface ConsentRejection {
  readonly outcome: ConsentOutcome;
  /**
   * Resolves when autoconsent has finished (opted out or closed the pop-up), when no consent
   * platform showed up for `quietMs` after detection started in the main frame, or after
   * `budgetMs`, whichever comes first. Never rejects.
   * @param quietMs default 1500: autoconsent retries detection on DOM mutations without end,
   *   so "nothing found" is only ever a quiet period; late banners (injected by a script after
   *   `load`) usually show within it.
   */
  settled(budgetMs: number, quietMs?: number): Promise<ConsentOutcome>;
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
  isMainWorld: false,
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

/** Lifecycle states after which a frame does nothing more. */
const FINAL = new Set(['nothingDetected', 'optOutSucceeded', 'optOutFailed', 'done']);

interface Message {
  type: string;
  id?: string;
  code?: string;
  cmp?: string;
  result?: boolean;
  mainFrame?: boolean;
  state?: { lifecycle?: string };
}

async function reply(frame: Frame, message: object): Promise<void> {
  try {
    await frame.evaluate(`autoconsentReceiveMessage(${JSON.stringify(message)})`);
  } catch {
    // The frame navigated or was detached: its instance is gone, nothing to answer.
  }
}

/**
 * Installs the rejector on a page before its first navigation. Returns a handle whose
 * `settled(budgetMs)` lets the engine wait (bounded) before taking its output.
 * @param assets default: read from the installed package (pass shared assets to avoid re-reading)
 */
export async function installConsentRejector(
  page: Page,
  assets: ConsentRejectorAssets = loadConsentRejectorAssets(),
): Promise<ConsentRejection> {
  const outcome: ConsentOutcome = { detected: [], optOut: null, done: false, timedOut: false };
  let mainFinal = false;
  let mainStartedAt = 0;
  const waiters = new Set<() => void>();
  const changed = (): void => {
    for (const wake of waiters) wake();
  };

  await page.exposeBinding('autoconsentSendMessage', async ({ frame }, raw: unknown) => {
    const msg = raw as Message;
    switch (msg.type) {
      case 'init':
        await reply(frame, {
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
          result = await frame.evaluate(msg.code ?? 'false');
        } catch {
          // A failing eval rule is a negative answer, as in autoconsent's runner.
        }
        await reply(frame, { type: 'evalResp', id: msg.id, result });
        break;
      }
      case 'cmpDetected':
        if (msg.cmp && !outcome.detected.includes(msg.cmp)) outcome.detected.push(msg.cmp);
        break;
      case 'optOutResult':
        outcome.optOut = msg.result === true;
        break;
      case 'autoconsentDone':
        outcome.done = true;
        break;
      case 'report':
        if (!msg.mainFrame) break;
        if (FINAL.has(msg.state?.lifecycle ?? '')) mainFinal = true;
        if (msg.state?.lifecycle === 'started' && mainStartedAt === 0) mainStartedAt = Date.now();
        break;
    }
    changed();
  });
  await page.addInitScript({ content: assets.contentScript });

  // Done (opted out or closed), a failed opt-out, or a main frame that found nothing.
  const isSettled = (quietSince: number, quietMs: number): boolean => {
    if (outcome.done || outcome.optOut === false) return true;
    if (outcome.detected.length > 0) return false;
    if (mainFinal) return true;
    return mainStartedAt > 0 && Date.now() - Math.max(mainStartedAt, quietSince) >= quietMs;
  };

  return {
    outcome,
    settled(budgetMs: number, quietMs = 1500): Promise<ConsentOutcome> {
      const calledAt = Date.now();
      return new Promise((resolve) => {
        const finish = (): void => {
          clearTimeout(timer);
          clearInterval(poll);
          waiters.delete(check);
          resolve(outcome);
        };
        const check = (): void => {
          if (isSettled(calledAt, quietMs)) finish();
        };
        const timer = setTimeout(
          () => {
            outcome.timedOut = !isSettled(calledAt, quietMs);
            finish();
          },
          Math.max(0, budgetMs),
        );
        // The quiet period ends without any message: look again now and then.
        const poll = setInterval(check, 100);
        waiters.add(check);
        check();
      });
    },
  };
}
