/**
 * Databases that stop answering, on loopback: a server that accepts connections and never
 * says a word, and a TCP proxy to a real PostgreSQL that can fall silent (both directions
 * held, connections kept open), as a stalled server or a network partition looks to a node.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface SilentServer {
  port: number;
  /** Connections accepted so far. */
  accepted(): number;
  close(): Promise<void>;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

function closeAll(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Accepts every connection and never answers. */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return { port, accepted: () => accepted, close: () => closeAll(server, sockets) };
}

export interface SilenceableProxy {
  port: number;
  /** Holds every byte both ways, on open connections and new ones, until `speak()`. */
  silence(): void;
  speak(): void;
  close(): Promise<void>;
}

/** A TCP proxy to 127.0.0.1:targetPort that can fall silent. */
export async function startSilenceableProxy(targetPort: number): Promise<SilenceableProxy> {
  const sockets = new Set<Socket>();
  let silent = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    if (silent) socket.pause();
  };
  const server = createServer((client) => {
    track(client);
    const upstream = connect(targetPort, '127.0.0.1');
    track(upstream);
    // pipe() would resume a paused socket on its own; forwarding by hand keeps the silence.
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await listen(server);
  return {
    port,
    silence() {
      silent = true;
      for (const socket of sockets) socket.pause();
    },
    speak() {
      silent = false;
      for (const socket of sockets) socket.resume();
    },
    close: () => closeAll(server, sockets),
  };
}
