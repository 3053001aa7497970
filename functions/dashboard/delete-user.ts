import { auditEntry } from '../../shared/domain/audit-entry.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { UserIdParamsSchema } from '../../shared/schemas/dashboard-schemas.ts';
import { changeUserKeepingAnAdmin } from '../../shared/dashboard/user-access.ts';

/**
 * DELETE /v1/dashboard/users/{id}: the user item goes with its audit entry in one transaction (their tokens stop
 * working at once: every call reads the user), then their login.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.deleteDashboardUser,
  { params: UserIdParamsSchema },
  async (req, deps) => {
    const actor = signedInUser(req.auth);
    const user = await changeUserKeepingAnAdmin(deps, actor.merchantId, req.params.id, null, async (user, guard) => {
      await deps.users.remove(user, [...guard, deps.audit.entryPut(auditEntry(actor, req.now, 'user.removed', user.id, { email: user.email, role: user.role }))]);
      return user;
    });
    await deps.userDirectory.removeLogin(user.id);
    return { statusCode: 200, body: { id: user.id, deleted: true } };
  },
  { userDirectory: userDirectoryFromEnvironment, userTokens: userTokensFromEnvironment },
);
