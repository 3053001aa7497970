/**
 * The enrolment session the page holds between "start" and "confirm" of MFA set-up: the directory's enrolment state
 * (Cognito's access token, or the sandbox's new TOTP secret) sealed with the SecretBox, bound to the user by the
 * encryption context and to a lifetime, so the page can neither read it nor hand it to another account.
 *
 * @example
 * const session = await sealEnrolment(deps.secretBox, user.id, enrolment.enrolmentState, req.now);
 * const state = await openEnrolment(deps.secretBox, user.id, session, req.now); // or MfaEnrolmentExpiredError
 */
import { DecryptionError } from '../crypto/errors.ts';
import type { SecretBox } from '../crypto/secret-box.ts';
import { MfaEnrolmentExpiredError } from './mfa-errors.ts';

/** Long enough to find the phone and scan; well inside the access token's hour. */
export const ENROLMENT_LIFETIME_MS = 10 * 60_000;

const context = (userId: string) => ({ userId, purpose: 'dashboard_mfa_enrolment' });

export async function sealEnrolment(box: SecretBox, userId: string, state: string, now: number): Promise<string> {
  return box.encrypt(JSON.stringify({ state, expiresAt: now + ENROLMENT_LIFETIME_MS }), context(userId));
}

export async function openEnrolment(box: SecretBox, userId: string, session: string, now: number): Promise<string> {
  let opened: { state?: unknown; expiresAt?: unknown };
  try {
    opened = JSON.parse(await box.decrypt(session, context(userId))) as typeof opened;
  } catch (error) {
    // Not sealed by us, or for another user: the same answer as an expired one.
    if (error instanceof DecryptionError || error instanceof SyntaxError) throw new MfaEnrolmentExpiredError();
    throw error;
  }
  if (typeof opened.state !== 'string' || typeof opened.expiresAt !== 'number' || opened.expiresAt <= now) throw new MfaEnrolmentExpiredError();
  return opened.state;
}
