/**
 * Accessibility checks the dashboard e2e runs inside the real page: labels, the Tab order
 * and text contrast. Each returns what failed, so an assertion can print it.
 */
import type { Page } from 'playwright-core';

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

/**
 * tsx compiles with esbuild's keepNames, which wraps named functions in the callbacks below
 * with a `__name(...)` helper that exists only in Node; the page gets a no-op of its own.
 */
async function nameShim(page: Page): Promise<void> {
  await page.evaluate('globalThis.__name ??= (fn) => fn');
}

/** Form controls without a label and buttons or links without a name. */
export async function unlabelledControls(page: Page): Promise<string[]> {
  await nameShim(page);
  return page.evaluate(() => {
    const bad: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('input, select, textarea')) {
      if ((el as HTMLInputElement).type === 'hidden') continue;
      const labels = (el as HTMLInputElement).labels?.length ?? 0;
      if (labels === 0 && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
        bad.push(el.outerHTML.slice(0, 100));
    }
    for (const el of document.querySelectorAll<HTMLElement>('button, a[href]')) {
      if (!el.getAttribute('aria-label') && !el.textContent?.trim())
        bad.push(el.outerHTML.slice(0, 100));
    }
    return bad;
  });
}

/**
 * Presses Tab from the first focusable element until focus comes back round, and names
 * every visible, enabled control that focus never reached.
 */
export async function tabWalk(page: Page): Promise<{ reached: number; missed: string[] }> {
  await nameShim(page);
  const count = await page.evaluate((selector) => {
    const shown = (el: HTMLElement) =>
      el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const all = [...document.querySelectorAll<HTMLElement>(selector)].filter(
      (el) =>
        el.tabIndex >= 0 &&
        !(el as HTMLButtonElement).disabled &&
        shown(el) &&
        // Tab stops at a radio group's checked radio; arrows move within the group.
        !(el instanceof HTMLInputElement && el.type === 'radio' && !el.checked),
    );
    all.forEach((el, i) => {
      el.dataset.kb = String(i);
    });
    all[0]?.focus();
    return all.length;
  }, FOCUSABLE);
  const active = () =>
    page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.kb);
  const seen = new Set<string>();
  const first = await active();
  if (first !== undefined) seen.add(first);
  for (let i = 0; i < count * 2 + 5; i++) {
    await page.keyboard.press('Tab');
    const id = await active();
    if (id === first) break;
    if (id !== undefined) seen.add(id);
  }
  const missed = await page.evaluate(
    (ids) =>
      [...document.querySelectorAll<HTMLElement>('[data-kb]')]
        .filter((el) => !ids.includes(el.dataset.kb ?? ''))
        .map((el) => el.outerHTML.slice(0, 100)),
    [...seen],
  );
  return { reached: seen.size, missed };
}

/**
 * Visible text whose colour against its background is under the WCAG AA ratio of 4.5:1
 * (disabled buttons are exempt, as WCAG exempts inactive controls).
 */
export async function lowContrastTexts(page: Page): Promise<string[]> {
  await nameShim(page);
  return page.evaluate(() => {
    const rgba = (css: string): number[] | null => {
      const m = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(css);
      return m
        ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])]
        : null;
    };
    const luminance = ([r, g, b]: number[]) => {
      const lin = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r ?? 0) + 0.7152 * lin(g ?? 0) + 0.0722 * lin(b ?? 0);
    };
    const background = (from: Element): number[] => {
      for (let el: Element | null = from; el; el = el.parentElement) {
        const c = rgba(getComputedStyle(el).backgroundColor);
        if (c && (c[3] ?? 0) > 0.5) return c;
      }
      return rgba(getComputedStyle(document.documentElement).backgroundColor) ?? [255, 255, 255, 1];
    };
    const bad: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim());
      if (!own || el.getClientRects().length === 0) continue;
      if (el.closest('button:disabled, .shot, option')) continue;
      const fg = rgba(getComputedStyle(el).color);
      const bg = background(el);
      if (!fg) {
        bad.push(`${el.tagName}: unparsed colour ${getComputedStyle(el).color}`);
        continue;
      }
      const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
      const ratio = ((l1 ?? 0) + 0.05) / ((l2 ?? 0) + 0.05);
      if (ratio < 4.5)
        bad.push(
          `${el.tagName}.${el.className} "${el.textContent?.trim().slice(0, 30)}" ${ratio.toFixed(2)}`,
        );
    }
    return bad;
  });
}
