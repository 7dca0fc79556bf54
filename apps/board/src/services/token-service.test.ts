import { describe, expect, it } from 'vitest';
import { boardFixture } from '../testing/board-fixture.ts';
import { hashToken } from './token-service.ts';

describe('token service', () => {
  it('issues rbt_ tokens from 32 random bytes and stores only their hash', async () => {
    const f = await boardFixture();
    const { token, record } = await f.services.tokens.create(f.members.viewer.id);
    expect(token).toMatch(/^rbt_[A-Za-z0-9_-]{43}$/);
    expect(record.hash).toBe(hashToken(token));
    const dump = JSON.stringify(f.db.prepare('SELECT * FROM tokens').all());
    expect(dump).not.toContain(token);
    const verified = await f.services.tokens.verifier().verify(token);
    expect(verified).toEqual({
      ok: true,
      principal: {
        id: f.members.viewer.id,
        name: 'Vic',
        role: 'viewer',
        attributes: { kind: 'person' },
        credentialId: record.id,
      },
    });
  });

  it('refuses unknown, revoked and expired tokens, and tokens of revoked members', async () => {
    let now = new Date('2026-07-28T00:00:00Z');
    const f = await boardFixture({ now: () => now });
    const verifier = f.services.tokens.verifier();
    expect(await verifier.verify('rbt_nope')).toEqual({ ok: false, reason: 'unknown' });
    expect(await verifier.verify('Bearer something')).toEqual({ ok: false, reason: 'unknown' });

    const revoked = await f.services.tokens.create(f.members.maintainer.id);
    await f.services.tokens.revoke(revoked.record.prefix);
    expect(await verifier.verify(revoked.token)).toEqual({ ok: false, reason: 'revoked' });

    const expiring = await f.services.tokens.create(f.members.maintainer.id, 60_000);
    expect((await verifier.verify(expiring.token)).ok).toBe(true);
    now = new Date(now.getTime() + 60_001);
    expect(await verifier.verify(expiring.token)).toEqual({ ok: false, reason: 'expired' });

    const member = await f.services.tokens.create(f.members.contributor.id);
    await f.services.members.revoke(f.members.contributor.id);
    expect(await verifier.verify(member.token)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('revokes by id or unique prefix and refuses unknown selectors', async () => {
    const f = await boardFixture();
    const a = await f.services.tokens.create(f.members.owner.id);
    expect((await f.services.tokens.revoke(a.record.id)).revokedAt).not.toBeNull();
    await expect(f.services.tokens.revoke(a.record.id)).rejects.toMatchObject({ code: 'TOKEN_NOT_FOUND' });
    await expect(f.services.tokens.revoke('rbt_')).rejects.toMatchObject({ code: 'TOKEN_NOT_FOUND' });
  });

  it('revokes by a prefix longer than the 12 characters stored, or by the whole token', async () => {
    const f = await boardFixture();
    const a = await f.services.tokens.create(f.members.owner.id);
    const b = await f.services.tokens.create(f.members.owner.id);
    expect(a.record.prefix).toHaveLength(12);
    expect((await f.services.tokens.revoke(a.token.slice(0, 20))).id).toBe(a.record.id);
    expect((await f.services.tokens.revoke(b.token)).id).toBe(b.record.id);
    expect(await f.services.tokens.verifier().verify(a.token)).toEqual({ ok: false, reason: 'revoked' });
    expect(await f.services.tokens.verifier().verify(b.token)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('re-checks a verified principal: fresh role and name, or why its token or member no longer holds', async () => {
    let now = new Date('2026-07-28T00:00:00Z');
    const f = await boardFixture({ now: () => now });
    const recheck = f.services.tokens.recheck();
    const issued = await f.services.tokens.create(f.members.maintainer.id, 60_000);
    const verified = await f.services.tokens.verifier().verify(issued.token);
    if (!verified.ok) throw new Error(`token refused: ${verified.reason}`);
    const principal = verified.principal;
    expect(await recheck(principal)).toEqual(principal);

    await f.services.members.setRole(f.members.maintainer.id, 'viewer');
    expect(await recheck(principal)).toEqual({ ...principal, role: 'viewer' });
    expect(await recheck({ ...principal, credentialId: 'tok_missing' })).toEqual({ refused: 'unknown' });
    expect(await recheck({ ...principal, id: f.members.owner.id })).toEqual({ refused: 'unknown' });

    now = new Date(now.getTime() + 60_001);
    expect(await recheck(principal)).toEqual({ refused: 'expired' });
    await f.services.tokens.revoke(issued.record.id);
    expect(await recheck(principal)).toEqual({ refused: 'revoked' });

    const other = await f.services.tokens.create(f.members.contributor.id);
    const contributor = await f.services.tokens.verifier().verify(other.token);
    if (!contributor.ok) throw new Error(`token refused: ${contributor.reason}`);
    await f.services.members.revoke(f.members.contributor.id);
    expect(await recheck(contributor.principal)).toEqual({ refused: 'revoked' });
    const { credentialId: _dropped, ...withoutCredential } = contributor.principal;
    expect(await recheck(withoutCredential)).toEqual({ refused: 'revoked' });
  });
});
