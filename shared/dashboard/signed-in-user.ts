import type { AuthContext } from '../auth/authenticator.ts';
import type { DashboardUser } from '../domain/dashboard-user.ts';
import { InvalidTokenError } from './errors.ts';

/**
 * The user behind a dashboard route's call. The authenticate middleware sets it on every `auth: 'user'` route; a
 * call without one (an API key on a reused route) has no user to record in the audit log.
 */
export function signedInUser(auth: AuthContext): DashboardUser {
  if (!auth.user) throw new InvalidTokenError();
  return auth.user;
}
