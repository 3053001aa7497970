import type { DashboardUser } from '../../shared/dashboard/dashboard-user.ts';
import type { Deps } from '../../shared/deps.ts';
import { NotFoundError } from '../../shared/errors.ts';

/** A user of the caller's merchant; another merchant's is indistinguishable from a missing one. */
export async function findUser(deps: Deps, merchantId: string, userId: string): Promise<DashboardUser> {
  const user = await deps.users.get(userId);
  if (!user || user.merchantId !== merchantId) throw new NotFoundError('user', 'id');
  return user;
}
