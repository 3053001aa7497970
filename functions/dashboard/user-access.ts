import { setTimeout as sleep } from 'node:timers/promises';
import { adminWhoRemains, type DashboardUser } from '../../shared/dashboard/dashboard-user.ts';
import { LastAdminError, UsersChangedError } from '../../shared/dashboard/errors.ts';
import type { Role } from '../../shared/dashboard/roles.ts';
import type { CoreDeps } from '../../shared/deps.ts';
import { NotFoundError } from '../../shared/errors.ts';
import { ConditionFailedError } from '../../shared/store/conditions.ts';
import type { TransactItem } from '../../shared/store/session-store.ts';

/** A user of the caller's merchant; another merchant's is indistinguishable from a missing one. */
export async function findUser(deps: CoreDeps, merchantId: string, userId: string): Promise<DashboardUser> {
  const user = await deps.users.get(userId);
  if (!user || user.merchantId !== merchantId) throw new NotFoundError('user', 'id');
  return user;
}

const MAX_ROUNDS = 8;

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
  for (let round = 1; ; round++) {
    const user = await findUser(deps, merchantId, userId);
    const remaining = adminWhoRemains(await deps.users.listForMerchant(merchantId), user, newRole);
    if (remaining === null) throw new LastAdminError();
    try {
      return await write(user, remaining ? [deps.users.stillAdmin(remaining.id)] : []);
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      if (round >= MAX_ROUNDS) throw new UsersChangedError();
      // Two transactions that cancelled each other would meet again at once: a random pause parts them.
      await sleep(Math.random() * 20 * round);
    }
  }
}
