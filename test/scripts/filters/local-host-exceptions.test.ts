import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isLocalHost,
  isLocalHostException,
  stripLocalHostExceptions,
} from '../../../scripts/filters/local-host-exceptions.js';

describe('local-host exceptions', () => {
  it('classifies loopback, private and .localhost hosts as local', () => {
    for (const host of [
      'localhost',
      '127.0.0.1',
      '127.',
      '[::1]',
      '10.0.0.',
      '192.168.',
      '172.20.1.1',
      'app.localhost',
      'printer.local',
    ]) {
      assert.equal(isLocalHost(host), true, host);
    }
    for (const host of [
      '10.com.au',
      'example.com',
      '172.32.0.1',
      '43.240.156.118',
      'localhost.example.com',
    ]) {
      assert.equal(isLocalHost(host), false, host);
    }
  });

  it('recognises the generichide exceptions AdGuard Base ships for development hosts', () => {
    for (const line of [
      '@@://127.0.0.1$generichide',
      '@@://localhost/$generichide',
      '@@://localhost:$generichide',
      '@@://192.168.$generichide',
      '@@||192.168.$~third-party',
      '@@||api.ip.sb/geoip$domain=tauri.localhost',
      'localhost,127.0.0.1#@#.ad-banner',
    ]) {
      assert.equal(isLocalHostException(line), true, line);
    }
  });

  it('keeps exceptions and rules for public hosts', () => {
    for (const line of [
      '@@||10.com.au^$generichide',
      '@@||gmail.com^$generichide',
      '@@43.240.156.118:8443^$stealth=referrer',
      '||doubleclick.net^',
      '##.banner-ad',
      'example.com#@#.ad-banner',
      '@@||cdn.example.com^$domain=example.com|localhost',
    ]) {
      assert.equal(isLocalHostException(line), false, line);
    }
  });

  it('strips only the local-host lines from a list and reports them', () => {
    const list = ['! comment', '||ads.example^', '@@://127.0.0.1$generichide', '##.banner-ad'].join(
      '\n',
    );
    const { text, dropped } = stripLocalHostExceptions(list);
    assert.deepEqual(dropped, ['@@://127.0.0.1$generichide']);
    assert.equal(text, ['! comment', '||ads.example^', '##.banner-ad'].join('\n'));
  });
});
