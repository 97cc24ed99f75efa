import { describe, expect, it } from 'vitest';
import { optionError } from '../../test/support/option-error';
import { resolveStoreOptions } from '../config/options';
import { resolveTrustedProxies } from '../config/trusted-proxies-option';
import type { RequestSession } from '../model/hooks';
import { clientAddress, clientKeyOf } from './client-key';

const PROXIES = ['10.0.0.0/8', '192.0.2.10', '2001:db8:ffff::/48', '::1'];

describe('clientAddress', () => {
  it.each<[string, string[], string | undefined, string | string[] | undefined, string]>([
    ['no trusted proxies ignore X-Forwarded-For', [], '203.0.113.9', '198.51.100.1', '203.0.113.9'],
    ['a peer that is no trusted proxy is the client', PROXIES, '203.0.113.9', '198.51.100.1', '203.0.113.9'],
    ['a trusted peer forwards for the rightmost entry', PROXIES, '10.1.2.3', '198.51.100.1', '198.51.100.1'],
    [
      'trusted hops are skipped from the right',
      PROXIES,
      '10.1.2.3',
      '198.51.100.1, 192.0.2.10, 10.9.9.9',
      '198.51.100.1',
    ],
    [
      'spoofed leftmost entries are never read',
      PROXIES,
      '10.1.2.3',
      '1.1.1.1, 6.6.6.6, 198.51.100.1',
      '198.51.100.1',
    ],
    [
      'a spoofed trusted address left of the client is never read',
      PROXIES,
      '10.1.2.3',
      '10.0.0.1, 198.51.100.1',
      '198.51.100.1',
    ],
    [
      'repeated headers are one list',
      PROXIES,
      '10.1.2.3',
      ['6.6.6.6', '198.51.100.1, 10.0.0.2'],
      '198.51.100.1',
    ],
    ['an IPv4-mapped peer counts as IPv4', PROXIES, '::ffff:10.1.2.3', '198.51.100.1', '198.51.100.1'],
    ['an IPv6 peer in a trusted CIDR', PROXIES, '2001:db8:ffff:1::5', '2001:db8:1:2::7', '2001:db8:1:2::7'],
    ['an IPv6 loopback proxy', PROXIES, '::1', '2001:db8:1:2::7', '2001:db8:1:2::7'],
    ['a port a proxy added is dropped', PROXIES, '10.1.2.3', '198.51.100.1:51234', '198.51.100.1'],
    ['a bracketed IPv6 entry with a port', PROXIES, '10.1.2.3', '[2001:db8:1:2::7]:443', '2001:db8:1:2::7'],
    [
      'a malformed entry stops at the last trusted hop',
      PROXIES,
      '10.1.2.3',
      '198.51.100.1, unknown, 10.0.0.2',
      '10.0.0.2',
    ],
    [
      'a malformed rightmost entry leaves the peer',
      PROXIES,
      '10.1.2.3',
      '198.51.100.1, not-an-ip',
      '10.1.2.3',
    ],
    ['a trusted peer without the header is the client', PROXIES, '10.1.2.3', undefined, '10.1.2.3'],
    ['only trusted hops: the leftmost one', PROXIES, '10.1.2.3', '10.0.0.7, 192.0.2.10', '10.0.0.7'],
    ['no address at all', PROXIES, undefined, '198.51.100.1', ''],
  ])('%s', (_case, proxies, ip, forwarded, address) => {
    const headers = forwarded === undefined ? {} : { 'x-forwarded-for': forwarded };
    expect(clientAddress({ ip, headers }, resolveTrustedProxies(proxies))).toBe(address);
  });
});

const session = (fields: Partial<RequestSession>): RequestSession => ({
  user: { _id: 'u1' },
  expiresAt: new Date(0),
  ...fields,
});

describe('clientKeyOf', () => {
  const proxies = resolveTrustedProxies(['10.0.0.0/8']);
  const behindProxy = { ip: '10.0.0.1', headers: { 'x-forwarded-for': '6.6.6.6, 2001:db8:1:2::7' } };

  it.each<[string, RequestSession | null, string]>([
    ['a session by its id', session({ id: 's1' }), 'session:s1'],
    ['a session without an id by its user', session({}), 'user:su1'],
    ['an anonymous IPv6 client by its /64, through the proxy', null, 'address:2001:db8:1:2::/64'],
  ])('keys %s', (_case, requestSession, key) => {
    expect(clientKeyOf(behindProxy, requestSession, proxies)).toBe(key);
  });

  it('gives two tabs of one session one key, and two people behind one address two', () => {
    const office = { ip: '198.51.100.1', headers: {} };
    const none = resolveTrustedProxies([]);
    const tabs = [1, 2].map(() => clientKeyOf(office, session({ id: 'ada' }), none));
    const people = ['ada', 'bob'].map((id) => clientKeyOf(office, session({ id }), none));
    expect(new Set(tabs).size).toBe(1);
    expect(new Set(people).size).toBe(2);
  });
});

describe('trustedProxies', () => {
  it('defaults to none, and resolves a list once', () => {
    expect(resolveStoreOptions({}).trustedProxies.entries).toEqual([]);
    const { trustedProxies } = resolveStoreOptions({ trustedProxies: ['10.0.0.0/8', '2001:db8::/32'] });
    expect([
      trustedProxies.has('10.200.0.1'),
      trustedProxies.has('2001:db8::5'),
      trustedProxies.has('11.0.0.1'),
    ]).toEqual([true, true, false]);
  });

  it.each([
    ['10.0.0.0/8', 'trustedProxies'],
    [['10.0.0.1', 'proxy.internal'], 'trustedProxies[1]'],
    [['10.0.0.0/33'], 'trustedProxies[0]'],
    [['2001:db8::/129'], 'trustedProxies[0]'],
    [['10.0.0.0/'], 'trustedProxies[0]'],
    [['10.0.0.0/8/8'], 'trustedProxies[0]'],
    [['999.0.0.1'], 'trustedProxies[0]'],
    [[10], 'trustedProxies[0]'],
  ])('refuses %j, naming %j', (trustedProxies, option) => {
    expect(optionError({ trustedProxies })).toMatchObject({ code: 'invalid_config', option });
  });
});
