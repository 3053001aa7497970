import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { auditEntry } from '../../shared/domain/audit-entry.ts';
import { openEnrolment } from '../../shared/dashboard/mfa-enrolment-session.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { ConfirmMfaEnrolmentBodySchema } from '../../shared/schemas/dashboard-schemas.ts';
import { withReservedAttempt } from '../../shared/dashboard/sign-in-guard.ts';

/**
 * POST /v1/dashboard/me/mfa/enrolment/confirm: the app's first code turns MFA on (every later sign-in asks for a
 * code); recorded in the audit log once the directory has it on.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.confirmDashboardMfaEnrolment,
  {
    body: ConfirmMfaEnrolmentBodySchema,
  },
  async (req, deps) => {
    const user = signedInUser(req.auth);
    const state = await openEnrolment(deps.secretBox, user.id, req.body.enrolmentSession, req.now);
    await withReservedAttempt(deps, user.email, req.now, () => deps.userDirectory.confirmMfaEnrolment(user, state, req.body.code));
    // The code just proved the app: this session counts as signed in with MFA (an admin needs no new sign-in).
    await deps.dashboardSessions.markMfa(req.auth.dashboardSession!.id);
    await deps.audit.record(auditEntry(user, req.now, 'user.mfa_enabled', user.id, { method: 'totp' }));
    return { statusCode: 200, body: { enabled: true } };
  },
  { crypto: cryptoFromEnvironment, userTokens: userTokensFromEnvironment, userDirectory: userDirectoryFromEnvironment },
);
