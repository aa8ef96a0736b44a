/**
 * Issue 24, point 1's class: a socket the service holds must have an 'error' listener from
 * the start. Node hands a CONNECT request's socket to the server's 'connect' listener with
 * none of its own; the service answers 405 and half-closes, and a client that then resets
 * the connection (RST, not FIN) raised ECONNRESET on a socket nobody listened to: any
 * caller, without a key, ended the process.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { startService, type TestService } from '../helpers/service.js';
import { watchUncaught } from '../helpers/uncaught.js';

let service: TestService;

before(async () => {
  service = await startService();
});

after(async () => {
  await service?.close();
});

/** Sends CONNECT, reads the answer's status line, then resets the connection. */
function connectThenReset(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'),
    );
    socket.on('error', reject);
    socket.once('data', (data) => {
      socket.resetAndDestroy();
      resolve(String(data).split('\r\n')[0] ?? '');
    });
  });
}

test('a CONNECT whose client resets after the 405 leaves the service serving', async () => {
  const uncaught = watchUncaught();
  const port = Number(new URL(service.baseUrl).port);
  for (let i = 0; i < 3; i += 1) {
    assert.equal(await connectThenReset(port), 'HTTP/1.1 405 Method Not Allowed');
  }
  // The reset reaches the service's socket after the answer: give it a moment to be read.
  await new Promise((resolve) => setTimeout(resolve, 200));
  uncaught.stop();
  assert.deepEqual(uncaught.seen(), [], 'the service raised an error nobody listened to');
  const health = await fetch(`${service.baseUrl}/healthz`);
  assert.equal(health.status, 200);
});
