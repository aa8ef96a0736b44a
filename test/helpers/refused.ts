/** Whether a listener still takes connections: a draining service refuses new ones. */
import { connect } from 'node:net';

/** Resolves true when a TCP connection to 127.0.0.1:port is refused. */
export function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}
