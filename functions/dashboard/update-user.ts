import { auditEntry } from '../../shared/domain/audit-entry.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { UpdateUserBodySchema, UserIdParamsSchema } from '../../shared/schemas/dashboard-schemas.ts';
import { changeUserKeepingAnAdmin } from '../../shared/dashboard/user-access.ts';

/** PATCH /v1/dashboard/users/{id}: a new role, written with its audit entry; never the merchant's last admin demoted. */
export const { build, handler, schemas } = defineApiHandler(
  manifest.updateDashboardUser,
  { params: UserIdParamsSchema, body: UpdateUserBodySchema },
  async (req, deps) => {
    const actor = signedInUser(req.auth);
    const updated = await changeUserKeepingAnAdmin(deps, actor.merchantId, req.params.id, req.body.role, (user, guard) => {
      const entry = auditEntry(actor, req.now, 'user.updated', user.id, { email: user.email, from: user.role, to: req.body.role });
      return deps.users.updateRole(user.id, req.body.role, [...guard, deps.audit.entryPut(entry)]);
    });
    return { statusCode: 200, body: { user: updated } };
  },
  { userTokens: userTokensFromEnvironment },
);
