import { describe, expect, it } from 'vitest';
import { boardFixture } from '../testing/board-fixture.ts';

describe('member service', () => {
  it('changes roles and refuses to demote or revoke the last owner', async () => {
    const f = await boardFixture();
    expect((await f.services.members.setRole(f.members.viewer.id, 'maintainer')).role).toBe('maintainer');
    await expect(f.services.members.setRole(f.members.owner.id, 'viewer')).rejects.toMatchObject({
      failure: { code: 'LAST_OWNER' },
    });
    await expect(f.services.members.revoke(f.members.owner.id)).rejects.toMatchObject({
      failure: { code: 'LAST_OWNER' },
    });
    await f.services.members.setRole(f.members.maintainer.id, 'owner');
    expect((await f.services.members.setRole(f.members.owner.id, 'viewer')).role).toBe('viewer');
  });

  it("changes a revoked owner's role while one active owner remains: a revoked owner is not the last one", async () => {
    const f = await boardFixture();
    await f.services.members.setRole(f.members.maintainer.id, 'owner');
    await f.services.members.revoke(f.members.maintainer.id);
    expect((await f.services.members.setRole(f.members.maintainer.id, 'viewer')).role).toBe('viewer');
    await expect(f.services.members.setRole(f.members.owner.id, 'viewer')).rejects.toMatchObject({
      failure: { code: 'LAST_OWNER' },
    });
  });

  it('lists revoked members only when asked and refuses unknown ids', async () => {
    const f = await boardFixture();
    await f.services.members.revoke(f.members.viewer.id);
    expect((await f.services.members.list(true)).map((m) => m.id)).not.toContain(f.members.viewer.id);
    expect((await f.services.members.list()).map((m) => m.id)).toContain(f.members.viewer.id);
    await expect(f.services.members.setRole('m_unknown1', 'viewer')).rejects.toMatchObject({
      code: 'MEMBER_NOT_FOUND',
    });
  });
});
