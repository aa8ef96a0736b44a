/**
 * Launching Chromium and finding its processes. Playwright's `Browser` does not expose the
 * pid, so it is read from /proc: the browser process is a direct child of this Node process
 * running the executable without `--type=` (renderers, GPU and utility processes have one).
 * The pid lets the pool report memory (soak bench) and lets tests kill the browser.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserType } from 'playwright-core';
import { implOf, internalsChanged } from './playwright-internals.js';

/**
 * playwright-core is loaded at the first launch, not with the service: it is about a third
 * of a start's module loading (~1 s of CPU on the 2-core CI machine), and a node that only
 * fetches, a CLI command or a test of the API never launches Chromium.
 */
async function playwrightChromium(): Promise<BrowserType> {
  return (await import('playwright-core')).chromium;
}

/**
 * Loads playwright-core now. A node that warms its browser at start calls it before it
 * listens: loaded by the warm-up's launch instead, the ~1 s of module evaluation fell inside
 * the first answers (a plain scrape's p99 went from ~0.1 s to 1.2 s in bench/scrape-fetch.ts).
 */
export async function loadPlaywright(): Promise<void> {
  await playwrightChromium();
}

/** Measured to work on this Debian Chromium as root; see the report for why each is here. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--metrics-recording-only',
  // navigator.webdriver false and no automation infobar: Chromium's own switch, rather
  // than a script patch a page could see through (issue 15).
  '--disable-blink-features=AutomationControlled',
  // The browser's own languages: the default identity's (identity/country-locale.ts), so
  // that a scrape without a country needs no language override, which would move
  // Accept-Language ahead of Accept (Chromium's override does) where Chrome sends it last.
  '--accept-lang=en-US,en',
];

/**
 * Added when the guard proxy is in use: WebRTC's UDP (STUN, TURN, peer candidates) does not
 * go through an HTTP proxy, so it could reach any address. This policy allows only proxied
 * (TCP) WebRTC traffic, which the guard vets like any other connection.
 */
export const GUARDED_CHROMIUM_ARGS: readonly string[] = [
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/**
 * Chromium features switched off on top of Playwright's own list. The spare renderer:
 * Chromium starts a renderer ahead of the next navigation, for the browser context that
 * navigated last, and throws it away when another context navigates. The warm pool's
 * contexts take turns, so nearly every render started a renderer nobody used (measured:
 * 127 renderers for 60 renders on 4 contexts, 8 without the spare; BENCHMARKS.md, issue 16).
 */
const DISABLED_FEATURES: readonly string[] = ['SpareRendererForSitePerProcess'];

/**
 * One `--disable-features` for the launch: Chromium reads only the last such switch, and
 * Playwright passes its own (features that would break automation), so ours repeats
 * Playwright's list with ours added. The list is read from Playwright's own default
 * arguments (the server-side browser type, playwright-internals.ts) so that it follows
 * playwright-core's version.
 */
export function disabledFeaturesArg(chromium: BrowserType): string {
  const server = implOf<{ _innerDefaultArgs(options: object): string[] }>(chromium);
  if (typeof server?._innerDefaultArgs !== 'function') {
    throw internalsChanged('its default launch arguments are out of reach', 'chromium-process.ts');
  }
  const prefix = '--disable-features=';
  const theirs = server
    ._innerDefaultArgs({ args: [], headless: true })
    .find((arg) => arg.startsWith(prefix));
  if (theirs === undefined) {
    throw internalsChanged('it no longer disables features', 'chromium-process.ts');
  }
  const features = theirs.slice(prefix.length).split(',').filter(Boolean);
  return `${prefix}${[...new Set([...features, ...DISABLED_FEATURES])].join(',')}`;
}

export async function launchChromium(
  executablePath: string,
  extraArgs: readonly string[],
  timeoutMs: number,
): Promise<{ browser: Browser; pid: number | null }> {
  const chromium = await playwrightChromium();
  const before = new Set(browserPids(executablePath));
  const browser = await chromium.launch({
    executablePath,
    args: [...CHROMIUM_ARGS, disabledFeaturesArg(chromium), ...extraArgs],
    timeout: timeoutMs,
    // The service owns shutdown; Chromium must not die with the first Ctrl-C before drain.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const pid = browserPids(executablePath).find((p) => !before.has(p)) ?? null;
  return { browser, pid };
}

interface ProcInfo {
  pid: number;
  ppid: number;
  argv: string[];
}

function readProc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { pid, ppid: Number(fields[1]), argv };
  } catch {
    return null; // exited while we looked
  }
}

function allProcs(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProc(Number(name));
    if (info) out.push(info);
  }
  return out;
}

/** Browser (not renderer) processes that this Node process started. */
export function browserPids(executablePath: string): number[] {
  return allProcs()
    .filter(
      (p) =>
        p.ppid === process.pid &&
        p.argv[0] === executablePath &&
        !p.argv.some((a) => a.startsWith('--type=')),
    )
    .map((p) => p.pid);
}

/** The browser process and all its descendants (renderers, GPU, network service, zygotes). */
export function processTree(rootPid: number): number[] {
  const procs = allProcs();
  const children = new Map<number, number[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const tree: number[] = [];
  const stack = [rootPid];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    tree.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Resident memory of a process tree in bytes (VmRSS summed; shared pages counted per process). */
export function treeRssBytes(rootPid: number): number {
  let total = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
      if (kb) total += Number(kb) * 1024;
    } catch {
      // exited while we looked
    }
  }
  return total;
}
