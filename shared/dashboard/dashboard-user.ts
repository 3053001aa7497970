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

/** Whether removing or demoting `user` would leave the merchant without an admin. */
export function leavesNoAdmin(users: readonly DashboardUser[], user: DashboardUser, newRole: Role | null): boolean {
  if (user.role !== 'admin' || newRole === 'admin') return false;
  return !users.some((other) => other.id !== user.id && other.role === 'admin');
}
