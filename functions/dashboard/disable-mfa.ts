import { auditEntry } from '../../shared/domain/audit-entry.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { DisableMfaBodySchema } from '../../shared/schemas/dashboard-schemas.ts';
import { withReservedAttempt } from '../../shared/dashboard/sign-in-guard.ts';

/**
 * POST /v1/dashboard/me/mfa/disable: password and a current code (both, so a stolen session or a stolen password alone
 * cannot remove the second step); recorded in the audit log.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.disableDashboardMfa,
  {
    body: DisableMfaBodySchema,
  },
  async (req, deps) => {
    const user = signedInUser(req.auth);
    await withReservedAttempt(deps, user.email, req.now, () => deps.userDirectory.disableMfa(user, req.body.password, req.body.code));
    await deps.audit.record(auditEntry(user, req.now, 'user.mfa_disabled', user.id, { method: 'totp' }));
    return { statusCode: 200, body: { enabled: false } };
  },
  { userTokens: userTokensFromEnvironment, userDirectory: userDirectoryFromEnvironment },
);
