import { describe, expect, it } from 'vitest';
import type { Principal, TokenVerifier } from '../contract.ts';
import { answerVerdict, authenticate, verifyBearer } from './bearer-auth.ts';

const carol: Principal = { id: 'm_carol', name: 'Carol', role: 'viewer', attributes: { kind: 'person' } };
const challenge = {
  resourceMetadataUrl: 'http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp',
  tokenHint: 'Ask the board owner for a new token (recourse-board tokens create)',
};
const verifier: TokenVerifier = {
  verify: (token) =>
    Promise.resolve(
      token === 'good-secret' ? { ok: true, principal: carol } : { ok: false, reason: 'revoked' },
    ),
};

describe('authenticate', () => {
  it('resolves the principal for a good token, whatever the scheme case', async () => {
    expect(await authenticate({ authorization: 'Bearer good-secret' }, verifier, challenge)).toEqual({
      ok: true,
      principal: carol,
    });
    expect(await authenticate({ authorization: 'bearer good-secret' }, verifier, challenge)).toMatchObject({
      ok: true,
    });
  });

  it('refuses a revoked token with 401, the challenge header and advice, never echoing the token', async () => {
    const outcome = await authenticate({ authorization: 'Bearer bad-secret' }, verifier, challenge);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.refusal).toMatchObject({ status: 401, code: -31401, data: { reason: 'revoked' } });
    expect(outcome.refusal.headers?.['www-authenticate']).toBe(
      `Bearer error="invalid_token", error_description="The bearer token was revoked", resource_metadata="${challenge.resourceMetadataUrl}"`,
    );
    expect(outcome.refusal.message).toBe(
      'The bearer token was revoked. Ask the board owner for a new token (recourse-board tokens create) and send it as ' +
        'Authorization: Bearer <token>; retrying with the same token will be refused again. Nothing was changed.',
    );
    expect(JSON.stringify(outcome.refusal)).not.toContain('bad-secret');
  });

  it('treats an absent, empty or non-Bearer header as a missing token', async () => {
    for (const headers of [
      {},
      { authorization: '  ' },
      { authorization: 'Basic Zm9vOmJhcg==' },
      { authorization: 'Bearer' },
    ]) {
      const outcome = await authenticate(headers, verifier, challenge);
      expect(outcome).toMatchObject({ ok: false, refusal: { status: 401, data: { reason: 'missing' } } });
      expect(JSON.stringify(outcome)).not.toContain('Zm9vOmJhcg');
    }
  });

  it('never echoes a credential sent without a scheme, while naming a known scheme sent instead of Bearer', async () => {
    const bare = await authenticate({ authorization: 'rb_0123456789abcdefSECRET' }, verifier, challenge);
    expect(bare).toMatchObject({ ok: false, refusal: { status: 401, data: { reason: 'missing' } } });
    expect(JSON.stringify(bare)).not.toContain('rb_0123');
    expect(bare.ok ? '' : bare.refusal.message).toContain('does not start with a known scheme');
    const basic = await authenticate({ authorization: 'Basic Zm9vOmJhcg==' }, verifier, challenge);
    expect(basic.ok ? '' : basic.refusal.message).toContain('the scheme sent was "Basic"');
  });

  it('answers 503 with Retry-After when the verifier itself fails', async () => {
    const broken: TokenVerifier = { verify: () => Promise.reject(new Error('db down')) };
    const outcome = await authenticate({ authorization: 'Bearer x' }, broken, challenge);
    expect(outcome).toMatchObject({
      ok: false,
      refusal: { status: 503, code: -31503, headers: { 'retry-after': '5' } },
    });
    expect(JSON.stringify(outcome.ok ? {} : outcome.refusal)).not.toContain('db down');
  });
});

describe('verifyBearer and answerVerdict', () => {
  it('verifies once and answers the same verdict later, as authenticate would', async () => {
    let calls = 0;
    const counting: TokenVerifier = {
      verify: (token) => {
        calls += 1;
        return verifier.verify(token);
      },
    };
    const good = await verifyBearer({ authorization: 'Bearer good-secret' }, counting);
    expect(good).toEqual({ ok: true, principal: carol });
    const bad = await verifyBearer({ authorization: 'Bearer bad-secret' }, counting);
    expect(bad).toEqual({ ok: false, reason: 'revoked' });
    expect(calls).toBe(2);
    expect(answerVerdict(bad, challenge)).toEqual(
      await authenticate({ authorization: 'Bearer bad-secret' }, verifier, challenge),
    );
    const failing = await verifyBearer(
      { authorization: 'Bearer x' },
      { verify: () => Promise.reject(new Error('store down')) },
    );
    expect(answerVerdict(failing, challenge)).toMatchObject({ ok: false, refusal: { status: 503 } });
  });
});
