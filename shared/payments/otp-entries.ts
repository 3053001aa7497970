/**
 * The OTP step's limit under concurrency (docs/security.md, round 4 finding 1). Each entry is reserved with one
 * conditional write before the bank sees its code, as sign-in reserves its attempts, so however many entries race,
 * at most MAX_OTP_ENTRIES of an attempt ever reach the bank. The wrong ones are then counted on the transaction as
 * before (otpFailures, under the session's version check); the reservation only bounds what is asked.
 */
import { MAX_OTP_ENTRIES } from '../domain/charge-transitions.ts';
import type { Session } from '../domain/session.ts';
import type { Transaction } from '../domain/transaction.ts';
import type { PaymentDeps } from '../deps.ts';
import { refuse } from './checkout-session.ts';

/**
 * Reserves an entry of the attempt and runs `check` (the bank's verdict on the code). With every entry reserved by
 * other requests still at the bank, 409 `charge_in_flight`: their outcome decides the attempt, and a retry after
 * it gets its answer. An entry whose check threw stays used: a timeout or a 5xx may have reached the bank with the
 * code, and the bound is on codes the bank sees.
 */
export async function withReservedEntry<T>(deps: PaymentDeps, session: Session, transaction: Transaction, check: () => Promise<T>): Promise<T> {
  // The counter outlives the session's end by a day: no entry is taken after it (decideOtpEntry: too_late).
  const reserved = await deps.transactions.reserveOtpEntry(transaction.reference, MAX_OTP_ENTRIES, Date.parse(session.expiresAt) + 86_400_000);
  if (!reserved) refuse({ status: 409, code: 'charge_in_flight' });
  return check();
}
