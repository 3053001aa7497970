import { adminWhoRemains, type DashboardUser } from '../domain/dashboard-user.ts';
import { LastAdminError, UsersChangedError } from './errors.ts';
import type { Role } from '../domain/roles.ts';
import type { CoreDeps } from '../deps.ts';
import { NotFoundError } from '../errors.ts';
import { policies } from '../retry/policies.ts';
import { retry } from '../retry/retry.ts';
import { ConditionFailedError } from '../store/conditions.ts';
import type { TransactItem } from '../store/session-store.ts';

/** A user of the caller's merchant; another merchant's is indistinguishable from a missing one. */
export async function findUser(deps: CoreDeps, merchantId: string, userId: string): Promise<DashboardUser> {
  const user = await deps.users.get(userId);
  if (!user || user.merchantId !== merchantId) throw new NotFoundError('user', 'id');
  return user;
}

/**
 * Removes or demotes (newRole) a user of the merchant, never its last admin. The other admin who must remain is
 * checked in the write's own transaction, so two admins removing each other at once cannot both succeed; the one
 * that loses decides again on fresh reads (then usually: 409 last_admin, or 404 when its target is gone).
 */
export async function changeUserKeepingAnAdmin<T>(
  deps: CoreDeps,
  merchantId: string,
  userId: string,
  newRole: Role | null,
  write: (user: DashboardUser, guard: TransactItem[]) => Promise<T>,
): Promise<T> {
  return retry(
    policies.adminGuardRace,
    async () => {
      const user = await findUser(deps, merchantId, userId);
      const remaining = adminWhoRemains(await deps.users.listForMerchant(merchantId), user, newRole);
      if (remaining === null) throw new LastAdminError();
      return write(user, remaining ? [deps.users.stillAdmin(remaining.id)] : []);
    },
    {
      isRetryable: (error) => error instanceof ConditionFailedError,
      onExhausted: () => {
        throw new UsersChangedError();
      },
    },
  );
}
