/**
 * Adding a dashboard user: shared by the dashboard's invite route, the admin CLI (a merchant's first admin) and the
 * sandbox's seeding.
 */
import { randomToken } from '../ids.ts';
import type { TransactItem } from '../store/session-store.ts';
import type { UserStore } from '../store/user-store.ts';
import { ConditionFailedError } from '../store/conditions.ts';
import { ConflictError } from '../errors.ts';
import { normaliseEmail, type DashboardUser } from './dashboard-user.ts';
import type { Role } from './roles.ts';
import type { UserDirectory } from './user-directory.ts';

/** The email already has an account (of this merchant or another: one email, one account). */
export class UserExistsError extends ConflictError {
  constructor() {
    super('user_exists', 'That email already has a dashboard account.');
    this.name = 'UserExistsError';
  }
}

/**
 * Creates the user item (with `alsoWrite`, e.g. its audit entry, in the same transaction), then the login: the
 * sandbox answers a temporary password, Cognito emails an invitation. If the login cannot be made, the user item is
 * taken back, so a retry starts clean.
 *
 * @example
 * const { user, temporaryPassword } = await inviteUser({ users, userDirectory }, { merchantId: 'mer_1', email: 'ana@example.com', role: 'admin', now: Date.now() });
 */
export async function inviteUser(
  stores: { users: UserStore; userDirectory: UserDirectory },
  { merchantId, email, role, now }: { merchantId: string; email: string; role: Role; now: number },
  alsoWrite: (user: DashboardUser) => TransactItem[] = () => [],
): Promise<{ user: DashboardUser; temporaryPassword?: string }> {
  const user: DashboardUser = { id: `usr_${randomToken()}`, email: normaliseEmail(email), role, merchantId, createdAt: new Date(now).toISOString() };
  try {
    await stores.users.create(user, alsoWrite(user));
  } catch (error) {
    if (error instanceof ConditionFailedError) throw new UserExistsError();
    throw error;
  }
  try {
    return { user, ...(await stores.userDirectory.createLogin(user)) };
  } catch (error) {
    await stores.users.remove(user);
    throw error;
  }
}
