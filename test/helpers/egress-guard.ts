/**
 * Preloaded into a child (`--import data:text/javascript,...`): logs every TCP connect to
 * stderr as `[egress] host:port` and refuses any off loopback, so a test can check that a
 * tool of the field (firecrawl-mcp) reached nothing but the service.
 */
export const EGRESS_GUARD = `
import net from 'node:net';
const connect = net.Socket.prototype.connect;
const loopback = new Set(['127.0.0.1', '::1', 'localhost']);
net.Socket.prototype.connect = function (...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = first !== null && typeof first === 'object' ? first : { port: first, host: args[1] };
  if (!options.path) {
    const host = options.host ?? 'localhost';
    process.stderr.write('[egress] ' + host + ':' + options.port + '\\n');
    if (!loopback.has(host)) {
      process.nextTick(() => this.destroy(new Error('egress to ' + host + ' refused')));
      return this;
    }
  }
  return connect.apply(this, args);
};
`;

/** The node argument that preloads the guard. */
export const EGRESS_GUARD_IMPORT = `data:text/javascript,${encodeURIComponent(EGRESS_GUARD)}`;
