import { describe, expect, it } from 'vitest';
import { effectiveRole, lowerRole, roleAtMost } from './oauth-scopes.ts';

describe('board OAuth scopes', () => {
  it('caps the member role by the highest role the granted scopes reach', () => {
    expect(effectiveRole('owner', 'board:read')).toBe('viewer');
    expect(effectiveRole('owner', 'board:read tasks:write offline_access')).toBe('contributor');
    expect(effectiveRole('contributor', 'board:read tasks:write board:manage members:manage')).toBe(
      'contributor',
    );
  });

  it('keeps the member role when no scope was granted, and gives viewer for only unknown scopes', () => {
    expect(effectiveRole('maintainer', '')).toBe('maintainer');
    expect(effectiveRole('maintainer', 'offline_access')).toBe('maintainer');
    expect(effectiveRole('maintainer', 'mcp:tools')).toBe('viewer');
  });

  it('orders roles owner > maintainer > contributor > viewer', () => {
    expect(lowerRole('owner', 'viewer')).toBe('viewer');
    expect(roleAtMost('maintainer', 'owner')).toBe(true);
    expect(roleAtMost('owner', 'maintainer')).toBe(false);
  });
});
