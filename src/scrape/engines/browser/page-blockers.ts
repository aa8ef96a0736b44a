/**
 * The blockers' part of a render (block_ads, block_cookie_banners, block_chat_widgets): the
 * consent rejector switched on before the navigation, then, once the page is taken, a wait
 * for the rejector only where there is a banner to reject, then the lists' hiding rules.
 * Requests are blocked elsewhere, by the page's one route (request-policy.ts).
 */
import type { BlockSelection, OutputType } from '../../types.js';
import type { BrowserBlockersHook, ConsentHandle } from './blockers-hook.js';
import type { Budget } from './budget.js';
import type { WarmPage } from './warm-page.js';

/**
 * This render's consent rejection. The rejector's binding and init script cannot be taken
 * off a page, so it is installed once and each later render on that page (its pool key
 * keeps it to renders with cookie-banner blocking) switches it on for itself; a rejector
 * that cannot be switched retires the page after the render.
 */
export async function beginConsentRejection(
  warm: WarmPage,
  blockers: BrowserBlockersHook,
  budget: Budget,
): Promise<ConsentHandle | undefined> {
  if (warm.consent) return warm.consent.begin?.();
  const installed = await budget.race(
    blockers.installConsentRejector(warm.page, warm.ownScriptName),
  );
  if (!installed?.begin) {
    warm.tainted = true;
    return installed;
  }
  warm.consent = installed;
  return installed.begin();
}

/**
 * After the page's load and steps: every element the selected lists match is hidden
 * (screenshot) or removed (HTML, Markdown), so that neither the blocked elements nor the
 * rules' stylesheet reach the caller. The consent rejector holds the render only where there
 * is something to reject: a pop-up it found open, or a banner of the cookie-notice list on
 * screen (looked for in the same step as the hiding, which is then put off); then it gets up
 * to `consent.ms` in all to click "reject" before the lists hide what is left.
 */
export async function applyPageBlockers(
  warm: WarmPage,
  output: OutputType,
  which: BlockSelection,
  blockers: BrowserBlockersHook,
  consent: { handle: ConsentHandle | undefined; ms: number },
  budget: Budget,
): Promise<void> {
  const { handle } = consent;
  const until = Date.now() + consent.ms;
  const wait = async (bannerInPage: boolean): Promise<void> => {
    const ms = until - Date.now();
    if (!handle || ms <= 0) return;
    await budget.race(handle.settled(ms, undefined, bannerInPage)).catch(() => {});
  };
  const { bannerCss, collectDomTokensInPage: collect } = blockers;
  const look = handle !== undefined && bannerCss !== undefined;
  // Without a way to look for a banner, the rejector's quiet period is waited out.
  await wait(!look);
  const hide = output === 'screenshot';
  const { page } = warm;
  // In a world of our own: no Playwright script to load into the document for these two.
  const tokens = () =>
    collect ? budget.race(warm.evaluateIsolated(collect, undefined)) : undefined;
  let dom = await tokens();
  const banner = look ? bannerCss(page.url(), dom) : '';
  const css = blockers.cosmeticCss(page.url(), which, dom);
  if (!css && !banner) return;
  if (await budget.race(warm.evaluateIsolated(applyRules, { css, banner, hide }))) return;
  await wait(true);
  dom = await tokens();
  const rest = blockers.cosmeticCss(page.url(), which, dom);
  if (rest) await budget.race(warm.evaluateIsolated(applyRules, { css: rest, banner: '', hide }));
}

/**
 * Runs in the page: hides (a stylesheet) or removes every element a rule of `css` matches,
 * unless a rule of `banner` matches an element on screen: then it changes nothing and
 * answers false. Self-contained, with no named inner functions: Playwright serialises it by
 * its source, and a bundler's name helpers do not exist in the page.
 */
function applyRules({
  css,
  banner,
  hide,
}: {
  css: string;
  banner: string;
  hide: boolean;
}): boolean {
  for (const [text, look] of [
    [banner, true],
    [hide ? '' : css, false],
  ] as const) {
    if (!text) continue;
    // A sheet of its own, never adopted: its rules are read, not applied.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    for (const rule of Array.from(sheet.cssRules)) {
      if (!(rule instanceof CSSStyleRule)) continue;
      let matched: Element[] = [];
      try {
        matched = Array.from(document.querySelectorAll(rule.selectorText));
      } catch {
        // A selector this Chromium does not support matches nothing.
      }
      for (const element of matched) {
        if (!look) element.remove();
        else if (element.checkVisibility()) return false;
      }
    }
  }
  if (hide) {
    const style = document.createElement('style');
    style.textContent = css;
    (document.head ?? document.documentElement).append(style);
  }
  return true;
}
