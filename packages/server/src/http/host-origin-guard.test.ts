import { describe, expect, it } from 'vitest';
import { checkHostAndOrigin, loopbackPolicy } from './host-origin-guard.ts';

describe('checkHostAndOrigin', () => {
  const policy = loopbackPolicy(4000);

  it('accepts the loopback names with the bound port, with or without a loopback Origin', () => {
    for (const host of ['127.0.0.1:4000', 'localhost:4000', 'LOCALHOST:4000', '[::1]:4000']) {
      expect(checkHostAndOrigin({ host }, policy)).toBeUndefined();
    }
    expect(
      checkHostAndOrigin({ host: 'localhost:4000', origin: 'http://localhost:4000' }, policy),
    ).toBeUndefined();
  });

  it('refuses a foreign or missing Host, a Host on another port, and names what is accepted', () => {
    for (const headers of [{ host: 'evil.example:4000' }, { host: 'localhost:4001' }, {}]) {
      const refusal = checkHostAndOrigin(headers, policy);
      expect(refusal).toMatchObject({ status: 403, code: -31403, reason: 'host' });
      expect(refusal?.message).toContain('localhost:4000');
    }
  });

  it('refuses a foreign, unparseable or null Origin', () => {
    for (const origin of ['http://evil.example', 'http://localhost:9999', 'not a url', 'null']) {
      expect(checkHostAndOrigin({ host: 'localhost:4000', origin }, policy)).toMatchObject({
        status: 403,
        reason: 'origin',
      });
    }
  });

  it('treats a configured host without a port as any port, and does not list configured names', () => {
    const custom = {
      allowedHosts: ['board.internal'],
      allowedOrigins: ['https://board.internal'],
      defaults: false,
    };
    expect(
      checkHostAndOrigin({ host: 'board.internal:8443', origin: 'https://board.internal' }, custom),
    ).toBeUndefined();
    const refusal = checkHostAndOrigin({ host: 'other' }, custom);
    expect(refusal?.message).not.toContain('board.internal');
  });

  it('skips a check that is turned off', () => {
    const open = { allowedHosts: false, allowedOrigins: false, defaults: false } as const;
    expect(checkHostAndOrigin({ host: 'anything', origin: 'http://anything' }, open)).toBeUndefined();
  });
});
