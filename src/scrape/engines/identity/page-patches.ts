/**
 * What no Chromium switch or CDP call sets, patched in every document before its scripts
 * run (a context init script) and in every worker before its own script
 * (browser/target-identity.ts): the WebGL vendor and renderer (without a GPU Chromium
 * reports its SwiftShader software rasteriser, a headless tell), `navigator.deviceMemory`
 * (Chrome rounds it to at most 8; this machine's 16 is no real Chrome's) and, on desktop,
 * a screen larger than the window with the window's frame around the page (headless
 * reports screen = window = page; a Windows frame is 85 px of tab strip and toolbar over a
 * 40 px task bar). Each replaced getter is a Proxy of the original, so it still reads as
 * `[native code]`.
 *
 * The rest of the identity comes from Chromium itself: the new headless mode (plugins,
 * mimeTypes, window.chrome, Notification), `--disable-blink-features=AutomationControlled`
 * (navigator.webdriver false) and CDP's user-agent, locale and time-zone overrides.
 */

export interface PagePatchSettings {
  webglVendor: string;
  webglRenderer: string;
  deviceMemory: number;
  /**
   * navigator.platform in workers. A page's comes from CDP's user-agent override, which
   * does not reach a worker's navigator (it reports this host's `Linux x86_64`).
   */
  platform: string;
  /**
   * navigator.userAgent and appVersion in workers. A shared worker starts with the
   * browser's own (`HeadlessChrome` on Linux) whatever its session is told later.
   */
  userAgent: string;
  /** Patch the screen and the window frame (desktop only: a phone's screen is its viewport). */
  desktopScreen: boolean;
}

/**
 * The patch as it runs in every document: plain JavaScript in a string, because a compiled
 * function may carry the compiler's helpers (esbuild's `__name`), which the page lacks.
 */
const PATCHES = `(settings) => {
  const replaceGetter = (target, name, value) => {
    const descriptor = Object.getOwnPropertyDescriptor(target, name);
    if (!descriptor || !descriptor.get) return;
    const get = new Proxy(descriptor.get, {
      apply(original, self) {
        const patched = value(self);
        return patched === undefined ? Reflect.apply(original, self, []) : patched;
      },
    });
    Object.defineProperty(target, name, { ...descriptor, get });
  };
  const UNMASKED_VENDOR = 0x9245;
  const UNMASKED_RENDERER = 0x9246;
  for (const api of ['WebGLRenderingContext', 'WebGL2RenderingContext']) {
    const proto = globalThis[api] && globalThis[api].prototype;
    if (!proto) continue;
    proto.getParameter = new Proxy(proto.getParameter, {
      apply(original, self, args) {
        if (args[0] === UNMASKED_VENDOR) return settings.webglVendor;
        if (args[0] === UNMASKED_RENDERER) return settings.webglRenderer;
        return Reflect.apply(original, self, args);
      },
    });
  }
  for (const api of ['Navigator', 'WorkerNavigator']) {
    if (globalThis[api]) replaceGetter(globalThis[api].prototype, 'deviceMemory', () => settings.deviceMemory);
  }
  if (globalThis.WorkerNavigator) {
    const worker = WorkerNavigator.prototype;
    replaceGetter(worker, 'platform', () => settings.platform);
    replaceGetter(worker, 'userAgent', () => settings.userAgent);
    replaceGetter(worker, 'appVersion', () => settings.userAgent.slice('Mozilla/'.length));
  }
  if (!settings.desktopScreen || typeof Screen === 'undefined') return;
  const FRAME = 85;
  const TASKBAR = 40;
  const SCREENS = [[1366, 768], [1536, 864], [1920, 1080], [2560, 1440], [3840, 2160]];
  const screenFor = () => {
    const width = window.innerWidth;
    const height = window.innerHeight + FRAME + TASKBAR;
    const fits = SCREENS.find(([w, h]) => w >= width && h >= height);
    return fits ? { width: fits[0], height: fits[1] } : { width, height };
  };
  replaceGetter(Screen.prototype, 'width', () => screenFor().width);
  replaceGetter(Screen.prototype, 'height', () => screenFor().height);
  replaceGetter(Screen.prototype, 'availWidth', () => screenFor().width);
  replaceGetter(Screen.prototype, 'availHeight', () => screenFor().height - TASKBAR);
  replaceGetter(window, 'outerWidth', () => window.innerWidth);
  replaceGetter(window, 'outerHeight', () => window.innerHeight + FRAME);
}`;

/** The script's source for these settings (`context.addInitScript({ content })`, or evaluated in a worker). */
export function pagePatchesScript(settings: PagePatchSettings): string {
  return `(${PATCHES})(${JSON.stringify(settings)});`;
}
