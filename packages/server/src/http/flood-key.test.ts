import { describe, expect, it } from 'vitest';
import { floodKey, LOOPBACK_FLOOD_KEY, normaliseAddress } from './flood-key.ts';

describe('normaliseAddress', () => {
  it('counts all of IPv4 loopback, its IPv4-mapped form and ::1 as one address', () => {
    for (const address of [
      '127.0.0.1',
      '127.0.0.2',
      '127.255.255.254',
      '127.1.2.3',
      '::ffff:127.0.0.1',
      '::ffff:127.9.8.7',
      '::1',
      '0:0:0:0:0:0:0:1',
    ])
      expect(normaliseAddress(address), address).toBe('loopback');
  });

  it('keys IPv6 addresses by their /64 prefix, whatever their spelling', () => {
    expect(normaliseAddress('2001:db8:1:2::5')).toBe('2001:db8:1:2::/64');
    expect(normaliseAddress('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(normaliseAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(normaliseAddress('2001:db8:1:3::5')).not.toBe(normaliseAddress('2001:db8:1:2::5'));
  });

  it('keeps other IPv4 addresses as they are, also when they arrive IPv4-mapped', () => {
    expect(normaliseAddress('10.0.0.1')).toBe('10.0.0.1');
    expect(normaliseAddress('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(normaliseAddress('::ffff:a00:1')).toBe('10.0.0.1');
    expect(normaliseAddress('10.0.0.2')).not.toBe(normaliseAddress('10.0.0.1'));
    expect(normaliseAddress('128.0.0.1')).toBe('128.0.0.1');
  });

  it('leaves text that is not an IP address unchanged', () => {
    expect(normaliseAddress('unknown')).toBe('unknown');
    expect(normaliseAddress('proxy-user-7')).toBe('proxy-user-7');
  });
});

describe('floodKey', () => {
  it('keeps members and addresses in separate key spaces', () => {
    expect(floodKey({ principal: 'alice' })).toBe('principal:alice');
    expect(floodKey({ address: '127.0.0.3' })).toBe(LOOPBACK_FLOOD_KEY);
    expect(floodKey({ address: 'loopback' })).toBe(LOOPBACK_FLOOD_KEY);
    expect(floodKey({ address: 'alice' })).toBe('address:alice');
    expect(floodKey({ address: '2001:db8::1' })).toBe('address:2001:db8:0:0::/64');
  });
});
