import { describe, expect, it } from 'vitest';
import { addressKey, parseIp } from './ip-address';

describe('addressKey', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::FFFF:c000:0207', '192.0.2.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:abcd:0001:0002', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['not-an-ip', 'not-an-ip'],
    ['', ''],
  ])('keys %j as %j', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});

describe('parseIp', () => {
  it.each([
    [' 192.0.2.7 ', { address: '192.0.2.7', family: 'ipv4' }],
    ['::ffff:192.0.2.7', { address: '192.0.2.7', family: 'ipv4' }],
    ['2001:DB8::1', { address: '2001:db8::1', family: 'ipv6' }],
    ['fe80::1%eth0', { address: 'fe80::1', family: 'ipv6' }],
    ['192.0.2.7:80', undefined],
    ['unknown', undefined],
    ['', undefined],
  ])('reads %j as %j', (text, ip) => {
    expect(parseIp(text)).toEqual(ip);
  });
});
