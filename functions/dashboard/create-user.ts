import { auditEntry } from '../../shared/domain/audit-entry.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { inviteMerchantUser } from '../../shared/dashboard/user-admin.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { CreateUserBodySchema } from '../../shared/schemas/dashboard-schemas.ts';

/**
 * POST /v1/dashboard/users: invites a user; the user item and its audit entry are one transaction. An email of another
 * merchant's account is answered as a fresh invitation (inviteMerchantUser): invitations reveal no other merchant's users.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.createDashboardUser,
  { body: CreateUserBodySchema },
  async (req, deps) => {
    const actor = signedInUser(req.auth);
    const invited = await inviteMerchantUser(deps, { merchantId: actor.merchantId, email: req.body.email, role: req.body.role, now: req.now }, (user) => [
      deps.audit.entryPut(auditEntry(actor, req.now, 'user.invited', user.id, { email: user.email, role: user.role })),
    ]);
    return { statusCode: 201, body: invited };
  },
  { userDirectory: userDirectoryFromEnvironment, userTokens: userTokensFromEnvironment },
);
