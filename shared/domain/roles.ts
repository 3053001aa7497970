/**
 * Dashboard roles, ordered: each may do what the ones before it may. A route declares the least role it needs
 * (`dashboard` on its manifest entry, shared/routes.ts); the API refuses a lower one with 403.
 */
export const ROLES = ['read_only', 'developer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Whether `role` reaches `required`.
 *
 * @example
 * roleAtLeast('developer', 'read_only') // true
 * roleAtLeast('read_only', 'developer') // false
 */
export const roleAtLeast = (role: Role, required: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(required);
