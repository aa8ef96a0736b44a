/**
 * A CONNECT proxy on loopback whose tunnels leave from an address of its own (127.0.0.N),
 * as a proxy's exit address: a fixture target can then answer some proxies with a block
 * page, by the address the request came from. Counts the connections clients open to it.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface ExitProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The address its tunnels leave from. */
  readonly exitAddress: string;
  /** TCP connections clients opened to it. */
  connections(): number;
  close(): Promise<void>;
}

export async function startExitProxy(exitAddress: string): Promise<ExitProxy> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    connections += 1;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.off('data', onData);
      const match = /^CONNECT ([^\s:]+|\[[^\]]+\]):(\d+) HTTP\/1\.[01]\r\n/.exec(
        head.toString('latin1'),
      );
      if (!match) return void client.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n');
      const upstream = connect({
        host: (match[1] ?? '').replace(/^\[|\]$/g, ''),
        port: Number(match[2]),
        localAddress: exitAddress,
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        const rest = head.subarray(end + 4);
        if (rest.length > 0) upstream.write(rest);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      client.on('close', () => upstream.destroy());
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    exitAddress,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
