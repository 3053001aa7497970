/**
 * The session a checkout request charges: the one its authentication read, read again after a lost race, and the
 * answer when the state machine refuses to act on it.
 */
import type { AuthContext } from '../auth/authenticator.ts';
import type { PaymentDeps } from '../deps.ts';
import type { ChargeRefusal } from '../domain/charge-transitions.ts';
import type { Session } from '../domain/session.ts';
import { ConflictError, GoneError, NotFoundError } from '../errors.ts';

const REFUSAL_MESSAGES: Record<ChargeRefusal['code'], string> = {
  session_completed: 'This session is already paid. A new payment needs a new session.',
  attempts_exhausted: 'This session has no attempts left (maxFailures reached). A new payment needs a new session.',
  charge_in_flight: 'A charge is already in progress on this session. Wait for its result before trying again.',
  otp_not_requested: 'This session is not waiting for an OTP.',
  session_expired: 'This session has expired. A new payment needs a new session.',
};

/** 410 for sessions closed by time or by the merchant, 409 for the rest: none of these is an attempt. */
export function refuse(refusal: ChargeRefusal): never {
  const message = REFUSAL_MESSAGES[refusal.code];
  throw refusal.status === 410 ? new GoneError(refusal.code, message) : new ConflictError(refusal.code, message);
}

/** The session the checkout authentication read: the handler starts from it instead of reading it again. */
export function checkoutSession(auth: AuthContext): Session {
  if (!auth.session) throw new Error('checkout route without the session of its authentication');
  return auth.session;
}

export async function requireSession(deps: PaymentDeps, reference: string): Promise<Session> {
  const session = await deps.sessions.get(reference);
  if (!session) throw new NotFoundError('session', 'sessionReference');
  return session;
}
