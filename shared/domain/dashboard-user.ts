/**
 * A merchant's dashboard user, as the table holds it (the password lives with the user directory: Cognito in AWS,
 * a scrypt hash in the sandbox). Pure: no I/O.
 */
import type { Role } from './roles.ts';

export interface DashboardUser {
  /** usr_…: also the user name in the Cognito pool, so a token names its user without a lookup by email. */
  id: string;
  /** Lower-cased: one email, one account, across merchants. */
  email: string;
  role: Role;
  merchantId: string;
  createdAt: string;
}

/**
 * The form an email is stored and looked up in.
 *
 * @example
 * normaliseEmail('  Ana@Example.COM ') // 'ana@example.com'
 */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/**
 * Who must still be an admin when removing or demoting `user` commits: another admin of the merchant. Undefined when
 * the change takes no admin away; null when there is no other admin (the change would leave none).
 */
export function adminWhoRemains(users: readonly DashboardUser[], user: DashboardUser, newRole: Role | null): DashboardUser | null | undefined {
  if (user.role !== 'admin' || newRole === 'admin') return undefined;
  return users.find((other) => other.id !== user.id && other.role === 'admin') ?? null;
}
