/**
 * Adding a dashboard user: shared by the dashboard's invite route, the admin CLI (a merchant's first admin) and the
 * sandbox's seeding.
 */
import { randomToken } from '../ids.ts';
import type { TransactItem } from '../store/session-store.ts';
import type { UserStore } from '../store/user-store.ts';
import { ConditionFailedError } from '../store/conditions.ts';
import { ConflictError } from '../errors.ts';
import { normaliseEmail, type DashboardUser } from '../domain/dashboard-user.ts';
import type { Role } from '../domain/roles.ts';
import type { UserDirectory } from './user-directory.ts';

/** The email already has an account (one email, one account); the dashboard says so only for the merchant's own users. */
export class UserExistsError extends ConflictError {
  constructor() {
    super('user_exists', 'That email already has a dashboard account.');
    this.name = 'UserExistsError';
  }
}

const newUser = ({ merchantId, email, role, now }: { merchantId: string; email: string; role: Role; now: number }): DashboardUser => ({
  id: `usr_${randomToken()}`,
  email: normaliseEmail(email),
  role,
  merchantId,
  createdAt: new Date(now).toISOString(),
});

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
  const user = newUser({ merchantId, email, role, now });
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

/**
 * A merchant admin's invitation (the dashboard's route). An email that already has an account of another merchant is
 * answered exactly as a fresh invitation (201, same fields), so an admin cannot probe which emails other merchants
 * use: the user is stored for this merchant without the email (it keeps signing in to its own account only) and gets
 * no login, so it can never sign in; the admin sees it in the list and may remove it. An email of this merchant's own
 * users is still 409 `user_exists`: the admin's list shows it anyway.
 */
export async function inviteMerchantUser(
  stores: { users: UserStore; userDirectory: UserDirectory },
  invitation: { merchantId: string; email: string; role: Role; now: number },
  alsoWrite: (user: DashboardUser) => TransactItem[] = () => [],
): Promise<{ user: DashboardUser; temporaryPassword?: string }> {
  try {
    return await inviteUser(stores, invitation, alsoWrite);
  } catch (error) {
    if (!(error instanceof UserExistsError)) throw error;
    const email = normaliseEmail(invitation.email);
    if ((await stores.users.listForMerchant(invitation.merchantId)).some((user) => user.email === email)) throw error;
    const user = newUser(invitation);
    try {
      await stores.users.create(user, alsoWrite(user), { claimEmail: false });
    } catch (clash) {
      throw clash instanceof ConditionFailedError ? new UserExistsError() : clash;
    }
    return { user, ...(await stores.userDirectory.placeholderLogin()) };
  }
}
