import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { ENROLMENT_LIFETIME_MS, sealEnrolment } from '../../shared/dashboard/mfa-enrolment-session.ts';
import { signedInUser } from '../../shared/dashboard/signed-in-user.ts';
import { userDirectoryFromEnvironment } from '../../shared/dashboard/user-directory-from-environment.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { StartMfaEnrolmentBodySchema } from '../../shared/schemas/dashboard-schemas.ts';
import { withReservedAttempt } from '../../shared/dashboard/sign-in-guard.ts';

/**
 * POST /v1/dashboard/me/mfa/enrolment: the password again (a security change; it also gets Cognito the access token
 * enrolment needs), then a new TOTP secret, its otpauth:// URI for the QR code, and the sealed enrolment session the
 * confirm route takes back. Nothing changes until a code confirms it.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.startDashboardMfaEnrolment,
  { body: StartMfaEnrolmentBodySchema },
  async (req, deps) => {
    const user = signedInUser(req.auth);
    const enrolment = await withReservedAttempt(deps, user.email, req.now, () => deps.userDirectory.startMfaEnrolment(user, req.body.password));
    return {
      statusCode: 200,
      body: {
        secret: enrolment.secret,
        otpauthUri: enrolment.otpauthUri,
        enrolmentSession: await sealEnrolment(deps.secretBox, user.id, enrolment.enrolmentState, req.now),
        expiresAt: new Date(req.now + ENROLMENT_LIFETIME_MS).toISOString(),
      },
      headers: { 'Cache-Control': 'no-store' },
    };
  },
  { crypto: cryptoFromEnvironment, userTokens: userTokensFromEnvironment, userDirectory: userDirectoryFromEnvironment },
);
