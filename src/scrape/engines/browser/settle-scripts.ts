/**
 * What a `settled` render (page-settle.ts) learns from inside the page, installed once in
 * every document of a warm page's context (never per request, so pages stay warm):
 *
 * - in the page's own world, before its scripts: which one-shot timers are due soon. No CDP
 *   event tells of a `setTimeout`, and "render on a timer" is a common pattern, so
 *   `setTimeout`/`clearTimeout` are wrapped. The wrappers are Proxies of the originals and
 *   `Function.prototype.toString` answers for them (and for itself) with the originals' text,
 *   so they still read `function setTimeout() { [native code] }`. Callbacks are not wrapped
 *   (no extra stack frame): a timer counts until its due time has passed. The same callback
 *   scheduled again and again (a poll, a carousel) stops counting after `TIMER_REPEATS`.
 *   Nothing is global: the one way in is a cancelable event of a secret type on `document`,
 *   which the wrapper's listener cancels while a timer is due (`defaultPrevented` is DOM
 *   state, seen from every world);
 * - in an isolated world of our own (`SETTLE_WORLD`), where the page cannot see or change
 *   it: when the DOM last changed (a MutationObserver from the document's start), the load
 *   event's time, a `<meta http-equiv=refresh>` about to move the page, and the timers' bit.
 */

/** The isolated world's name: `Page.createIsolatedWorld` with it returns that world. */
export const SETTLE_WORLD = 'pagegrab-settle';
/** Longer timers are not waited for (a cap of 5 s would end the render first anyway). */
export const TIMER_MAX_DELAY_MS = 2_000;
/** The same callback scheduled more often than this is a loop, not pending work. */
const TIMER_REPEATS = 2;
/** A timer past its due time by this much has run (or the page is too busy to tell). */
const TIMER_SLACK_MS = 50;
/** A meta refresh further away than this is a page's own reload cycle, not a move. */
export const META_REFRESH_MAX_S = 3;

/** What the isolated world reports on each probe. */
export interface SettleProbe {
  /** The document's load event has ended. */
  loaded: boolean;
  /** Milliseconds since the DOM last changed after the load event, or null if it has not. */
  sinceChangeMs: number | null;
  /** A one-shot timer is due soon in the page. */
  timers: boolean;
  /** A meta refresh will move the page soon. */
  refreshing: boolean;
}

/** Plain JavaScript in strings: a compiled function may carry the compiler's helpers. */
const TIMERS = `(secret, maxDelay, repeats, slack) => {
  const nativeToString = Function.prototype.toString;
  const originals = new WeakMap();
  const disguise = (original, apply) => {
    const proxy = new Proxy(original, { apply });
    originals.set(proxy, original);
    return proxy;
  };
  const now = performance.now.bind(performance);
  const due = new Map();
  const scheduled = new Map();
  const keyOf = (handler) => {
    try {
      return typeof handler === 'function' ? Reflect.apply(nativeToString, handler, []) : typeof handler === 'string' ? handler : null;
    } catch {
      return null;
    }
  };
  // Our own page-world scripts (the consent rejector's) run as <secret>.js: their timers
  // show it in the stack, and are not the page's work.
  const NativeError = Error;
  const ours = () => {
    try {
      return String(new NativeError().stack).includes(secret);
    } catch {
      return false;
    }
  };
  const setTimeoutNative = window.setTimeout;
  window.setTimeout = disguise(setTimeoutNative, (target, self, args) => {
    const id = Reflect.apply(target, self, args);
    const delay = Number(args[1]) || 0;
    const key = delay <= maxDelay && !ours() ? keyOf(args[0]) : null;
    if (key !== null) {
      if (scheduled.size > 1000) scheduled.clear();
      const times = (scheduled.get(key) || 0) + 1;
      scheduled.set(key, times);
      if (times <= repeats) due.set(id, now() + delay);
    }
    return id;
  });
  window.clearTimeout = disguise(window.clearTimeout, (target, self, args) => {
    due.delete(args[0]);
    return Reflect.apply(target, self, args);
  });
  const toString = disguise(nativeToString, (target, self, args) =>
    Reflect.apply(target, originals.get(self) || self, args));
  originals.set(toString, nativeToString);
  Function.prototype.toString = toString;
  const cancel = Event.prototype.preventDefault;
  Reflect.apply(EventTarget.prototype.addEventListener, document, [secret, (event) => {
    const t = now();
    for (const [id, at] of due) if (at + slack < t) due.delete(id);
    if (due.size > 0) Reflect.apply(cancel, event, []);
  }]);
}`;

const OBSERVER = `(secret, refreshMaxS) => {
  let changedAt = -1;
  new MutationObserver(() => { changedAt = performance.now(); }).observe(document, {
    subtree: true, childList: true, characterData: true, attributes: true,
  });
  const loadEnd = () => {
    const entry = performance.getEntriesByType('navigation')[0];
    return entry && entry.loadEventEnd > 0 ? entry.loadEventEnd : null;
  };
  const refreshing = (loadedAt) => {
    const meta = document.querySelector('meta[http-equiv="refresh" i]');
    const parts = meta && /^\\s*(\\d+(?:\\.\\d+)?)\\s*[;,]\\s*(?:url\\s*=\\s*)?\\S/i.exec(meta.content);
    if (!parts || Number(parts[1]) > refreshMaxS) return false;
    return performance.now() < loadedAt + Number(parts[1]) * 1000 + 500;
  };
  globalThis.settleProbe = () => {
    const loadedAt = loadEnd();
    const event = new Event(secret, { cancelable: true });
    document.dispatchEvent(event);
    return {
      loaded: loadedAt !== null,
      sinceChangeMs: loadedAt !== null && changedAt > loadedAt ? performance.now() - changedAt : null,
      timers: event.defaultPrevented,
      refreshing: loadedAt !== null && refreshing(loadedAt),
    };
  };
}`;

/** The name our own page-world scripts run under, whose timers the settle leaves out. */
export function ownScriptNameOf(secret: string): string {
  return `${secret}.js`;
}

/** The page-world script, for a context init script. */
export function timersScript(secret: string): string {
  const args = [secret, TIMER_MAX_DELAY_MS, TIMER_REPEATS, TIMER_SLACK_MS].map((a) =>
    JSON.stringify(a),
  );
  return `(${TIMERS})(${args.join(', ')});`;
}

/** The isolated world's script, for `Page.addScriptToEvaluateOnNewDocument`. */
export function observerScript(secret: string): string {
  return `(${OBSERVER})(${JSON.stringify(secret)}, ${META_REFRESH_MAX_S});`;
}

/** The expression a probe evaluates in the isolated world. */
export const PROBE = 'globalThis.settleProbe ? globalThis.settleProbe() : null';
