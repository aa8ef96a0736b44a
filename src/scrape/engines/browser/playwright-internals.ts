/**
 * Reaching playwright-core's server-side objects behind a client one. Playwright runs in
 * this process (`chromium.launch`), and its in-process connection maps each client object
 * to the server object it stands for (`toImpl`). A few things a render needs have no public
 * API: the identity in workers and out-of-process frames (target-identity.ts) and the HTTP
 * cache while requests are routed (http-cache.ts). Those modules replace methods of this
 * page's or this browser's own server objects, never a prototype. playwright-core is pinned;
 * when the shapes they rely on change they throw `internalsChanged`, and their tests fail.
 */

/** The server-side object of a client one, or undefined outside in-process Playwright. */
export function implOf<T>(client: object): Partial<T> | undefined {
  const connection = (client as { _connection?: { toImpl?: (o: unknown) => unknown } })._connection;
  return connection?.toImpl?.(client) as Partial<T> | undefined;
}

export function internalsChanged(consequence: string, module: string): Error {
  return new Error(
    `playwright-core's internals changed: ${consequence} (see src/scrape/engines/browser/${module})`,
  );
}

/** Playwright's CRSession, as far as used here. */
export interface CdpSession {
  send(method: string, params?: object): Promise<unknown>;
  _sendMayFail(method: string, params?: object): Promise<unknown>;
  /** CDP events, by method name (a CRSession is an EventEmitter). */
  on(event: string, listener: (params: never) => void): unknown;
}

/** Playwright's Chromium page (CRPage), as far as used here. */
export interface ServerPage {
  _mainFrameSession: unknown;
  _sessions: Map<string, unknown>;
  _networkManager: unknown;
}

/** The CRPage behind a page, or undefined when it is not reachable. */
export function serverPageOf(page: object): Partial<ServerPage> | undefined {
  return implOf<{ delegate: Partial<ServerPage> }>(page)?.delegate;
}
