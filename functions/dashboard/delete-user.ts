import { auditEntry } from '../../shared/dashboard/audit-entry.ts';
import { leavesNoAdmin } from '../../shared/dashboard/dashboard-user.ts';
import { LastAdminError } from '../../shared/dashboard/errors.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { DeletedUserSchema, UserIdParamsSchema } from '../../shared/schemas/dashboard-schemas.ts';
import { findUser } from './user-access.ts';

/**
 * DELETE /v1/dashboard/users/{id}: the user item goes with its audit entry in one transaction (their tokens stop
 * working at once: every call reads the user), then their login.
 */
export const { build, handler, schemas, parts } = defineApiHandler(
  'deleteDashboardUser',
  { params: UserIdParamsSchema, responses: { success: { 200: DeletedUserSchema }, errors: { 404: 'resource_missing', 409: 'last_admin' } } },
  async (req, deps) => {
    const actor = signedInUser(req.auth);
    const user = await findUser(deps, actor.merchantId, req.params.id);
    if (leavesNoAdmin(await deps.users.listForMerchant(actor.merchantId), user, null)) throw new LastAdminError();
    await deps.users.remove(user, [deps.audit.entryPut(auditEntry(actor, req.now, 'user.removed', user.id, { email: user.email, role: user.role }))]);
    await deps.userDirectory.removeLogin(user.id);
    return { statusCode: 200, body: { id: user.id, deleted: true } };
  },
  { parts: [userDirectoryFromEnvironment, userTokensFromEnvironment] },
);
