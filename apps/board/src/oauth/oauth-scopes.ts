/**
 * The OAuth scopes the board offers and how they map to its roles: each scope lets a token use the permissions
 * of one role, and a token's effective role is the lower of the member's role and the highest role its scopes
 * reach. A token granted no scope at all keeps the member's role.
 *
 * @packageDocumentation
 */
import { ROLES, type Role } from '../domain/roles.ts';

/** One scope: its name, the role whose permissions it opens, and what it lets a client do, for the consent page. */
export interface BoardScope {
  readonly name: string;
  readonly role: Role;
  readonly description: string;
}

/** Every scope, from least to most powerful; `scopes_supported` lists them in this order. */
export const BOARD_SCOPES: readonly BoardScope[] = [
  { name: 'board:read', role: 'viewer', description: 'read tasks, comments, history and members' },
  {
    name: 'tasks:write',
    role: 'contributor',
    description: 'create tasks and comment; change, move and assign its own or assigned tasks',
  },
  {
    name: 'board:manage',
    role: 'maintainer',
    description: 'change, move, assign and delete any task; export and import the board',
  },
  {
    name: 'members:manage',
    role: 'owner',
    description: 'invite members, change their roles and revoke them',
  },
];

/** The scope names, space-separated, as a resource server's `scope`. */
export const BOARD_SCOPE_NAMES: readonly string[] = BOARD_SCOPES.map((s) => s.name);

const rank = (role: Role): number => ROLES.length - ROLES.indexOf(role);

/** The lower of two roles (owner > maintainer > contributor > viewer). */
export function lowerRole(a: Role, b: Role): Role {
  return rank(a) <= rank(b) ? a : b;
}

/** True when `candidate` is no higher than `limit`. */
export function roleAtMost(candidate: Role, limit: Role): boolean {
  return rank(candidate) <= rank(limit);
}

/**
 * The role a token may act with: `memberRole` capped by the highest role the granted `scope` (space-separated)
 * reaches. Scopes the board does not know are ignored; a scope naming none of the board's scopes gives
 * `viewer` only when some scope was granted, and no cap when the scope is empty.
 */
export function effectiveRole(memberRole: Role, scope: string): Role {
  const names = scope.split(' ').filter((s) => s !== '');
  const granted = BOARD_SCOPES.filter((s) => names.includes(s.name));
  if (granted.length === 0) return names.some((n) => n !== 'offline_access') ? 'viewer' : memberRole;
  const cap = granted.reduce<Role>((high, s) => (rank(s.role) > rank(high) ? s.role : high), 'viewer');
  return lowerRole(memberRole, cap);
}
