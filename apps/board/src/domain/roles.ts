/**
 * Board roles and the role → permission table (the table in the board README) as a {@link PermissionPolicy}.
 *
 * @packageDocumentation
 */
import type { PermissionPolicy } from '@recourse/server';

/** The four board roles, most privileged first. */
export const ROLES = ['owner', 'maintainer', 'contributor', 'viewer'] as const;

/** One of {@link ROLES}. */
export type Role = (typeof ROLES)[number];

/** Every permission a board tool can require. */
export const PERMISSIONS = [
  'board:read',
  'tasks:create',
  'tasks:comment',
  'tasks:update',
  'tasks:move',
  'tasks:assign',
  'tasks:delete',
  'board:export',
  'board:import',
  'members:manage',
] as const;

/** One of {@link PERMISSIONS}. */
export type Permission = (typeof PERMISSIONS)[number];

/**
 * How a role holds a permission: `full`, or a condition the task service checks per task
 * (`own-or-assigned`: the caller created the task or is its assignee; `self-only`: the caller may only assign
 * themselves).
 */
export type Grant = 'full' | 'own-or-assigned' | 'self-only';

/** The permission table (the board README lists it); a role missing from a row does not hold that permission. */
export const PERMISSION_TABLE: Readonly<Record<Permission, Partial<Record<Role, Grant>>>> = {
  'board:read': { owner: 'full', maintainer: 'full', contributor: 'full', viewer: 'full' },
  'tasks:create': { owner: 'full', maintainer: 'full', contributor: 'full' },
  'tasks:comment': { owner: 'full', maintainer: 'full', contributor: 'full' },
  'tasks:update': { owner: 'full', maintainer: 'full', contributor: 'own-or-assigned' },
  'tasks:move': { owner: 'full', maintainer: 'full', contributor: 'own-or-assigned' },
  'tasks:assign': { owner: 'full', maintainer: 'full', contributor: 'self-only' },
  'tasks:delete': { owner: 'full', maintainer: 'full' },
  'board:export': { owner: 'full', maintainer: 'full' },
  'board:import': { owner: 'full', maintainer: 'full' },
  'members:manage': { owner: 'full' },
};

/** True when `value` is one of {@link ROLES}. */
export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The grant `role` holds for `permission`, or undefined when it holds none (unknown or no roles hold none). */
export function grantOf(role: string | undefined, permission: string): Grant | undefined {
  const row = (PERMISSION_TABLE as Record<string, Partial<Record<string, Grant>>>)[permission];
  return role === undefined ? undefined : row?.[role];
}

/**
 * The board's {@link PermissionPolicy}: `allows` is true for full and conditional grants alike (the task
 * service checks the conditions); `rolesGranting` lists roles in {@link ROLES} order.
 */
export const boardPermissions: PermissionPolicy = {
  allows(role, permission) {
    return grantOf(role, permission) !== undefined;
  },
  rolesGranting(permission) {
    return ROLES.filter((role) => grantOf(role, permission) !== undefined);
  },
};
