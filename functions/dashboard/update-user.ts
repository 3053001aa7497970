import { auditEntry } from '../../shared/dashboard/audit-entry.ts';
import { leavesNoAdmin } from '../../shared/dashboard/dashboard-user.ts';
import { LastAdminError } from '../../shared/dashboard/errors.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { UpdateUserBodySchema, UserIdParamsSchema, UserResultSchema } from '../../shared/schemas/dashboard-schemas.ts';
import { findUser } from './user-access.ts';

/** PATCH /v1/dashboard/users/{id}: a new role, written with its audit entry; never the merchant's last admin demoted. */
export const { build, handler, schemas, parts } = defineApiHandler(
  'updateDashboardUser',
  { params: UserIdParamsSchema, body: UpdateUserBodySchema, responses: { success: { 200: UserResultSchema }, errors: { 404: 'resource_missing', 409: 'last_admin' } } },
  async (req, deps) => {
    const actor = signedInUser(req.auth);
    const user = await findUser(deps, actor.merchantId, req.params.id);
    if (leavesNoAdmin(await deps.users.listForMerchant(actor.merchantId), user, req.body.role)) throw new LastAdminError();
    const entry = auditEntry(actor, req.now, 'user.updated', user.id, { email: user.email, from: user.role, to: req.body.role });
    return { statusCode: 200, body: { user: await deps.users.updateRole(user.id, req.body.role, [deps.audit.entryPut(entry)]) } };
  },
  { parts: [userTokensFromEnvironment] },
);
