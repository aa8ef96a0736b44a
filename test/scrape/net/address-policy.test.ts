import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type AddressClass,
  classifyAddress,
  isIpLiteral,
  isPublicAddress,
} from '../../../src/scrape/net/address-policy.js';

const TABLE: ReadonlyArray<readonly [string, AddressClass]> = [
  ['127.0.0.1', 'loopback'],
  ['127.1', 'loopback'],
  ['2130706433', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['017700000001', 'loopback'],
  ['0177.1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::1', 'loopback'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::7f00:1', 'loopback'],
  ['::ffff:0:7f00:1', 'loopback'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::a00:1', 'private'],
  ['2002:7f00:1::1', 'loopback'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['169.254.169.254', 'link-local'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456::1', 'unique-local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['224.0.0.1', 'multicast'],
  ['ff02::1', 'multicast'],
  ['255.255.255.255', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['64:ff9b:1::1', 'reserved'],
  ['fec0::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['172.32.0.1', 'public'],
  ['100.128.0.1', 'public'],
  ['::ffff:8.8.8.8', 'public'],
  ['64:ff9b::808:808', 'public'],
  ['2606:4700::1111', 'public'],
  ['[2606:4700:4700::1111]', 'public'],
];

for (const [ip, expected] of TABLE) {
  test(`${ip} is ${expected}`, () => {
    assert.equal(classifyAddress(ip), expected);
    assert.equal(isPublicAddress(ip), expected === 'public');
  });
}

test('hostnames normalised by the WHATWG URL parser classify the same', () => {
  const cases: ReadonlyArray<readonly [string, AddressClass]> = [
    ['http://127.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://017700000001/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::]/', 'unspecified'],
    ['http://0/', 'unspecified'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://8.8.8.8/', 'public'],
  ];
  for (const [url, expected] of cases) {
    assert.equal(classifyAddress(new URL(url).hostname), expected, url);
  }
});

test('a hostname is not an IP literal and cannot be classified', () => {
  assert.equal(isIpLiteral('example.com'), false);
  assert.equal(isIpLiteral('localhost'), false);
  assert.equal(isPublicAddress('example.com'), false);
  assert.throws(() => classifyAddress('localhost'), TypeError);
  assert.equal(isIpLiteral('[::1]'), true);
});
