import { describe, expect, it } from 'vitest';
import { boardPermissions, grantOf, PERMISSIONS, ROLES } from './roles.ts';

describe('board permission table', () => {
  it('grants board:read to every role and members:manage to the owner only', () => {
    for (const role of ROLES) expect(boardPermissions.allows(role, 'board:read')).toBe(true);
    expect(boardPermissions.rolesGranting('members:manage')).toEqual(['owner']);
  });

  it('refuses writes to viewers and names the roles that hold each permission', () => {
    expect(boardPermissions.allows('viewer', 'tasks:create')).toBe(false);
    expect(boardPermissions.rolesGranting('tasks:create')).toEqual(['owner', 'maintainer', 'contributor']);
    expect(boardPermissions.rolesGranting('tasks:delete')).toEqual(['owner', 'maintainer']);
    expect(boardPermissions.allows('contributor', 'tasks:delete')).toBe(false);
  });

  it('lets contributors through conditionally for update, move and assign', () => {
    expect(grantOf('contributor', 'tasks:update')).toBe('own-or-assigned');
    expect(grantOf('contributor', 'tasks:move')).toBe('own-or-assigned');
    expect(grantOf('contributor', 'tasks:assign')).toBe('self-only');
    expect(boardPermissions.allows('contributor', 'tasks:update')).toBe(true);
  });

  it('holds nothing for unknown roles or permissions', () => {
    for (const permission of PERMISSIONS) expect(boardPermissions.allows('guest', permission)).toBe(false);
    expect(boardPermissions.allows('owner', 'tasks:teleport')).toBe(false);
    expect(boardPermissions.rolesGranting('tasks:teleport')).toEqual([]);
  });
});
