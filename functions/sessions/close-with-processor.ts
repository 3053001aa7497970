import { SERVICE_CODES } from '../../shared/domain/decline-codes.ts';
import { sessionExpiredEvent } from '../../shared/domain/events.ts';
import type { Merchant } from '../../shared/domain/merchant.ts';
import type { Session } from '../../shared/domain/session.ts';
import type { ClosedReason } from '../../shared/domain/session-state.ts';
import { chargeEvent, resolveTransaction, toTransactionResource, traced } from '../../shared/domain/transaction.ts';
import type { Deps } from '../../shared/deps.ts';
import { ApiError, ConflictError } from '../../shared/errors.ts';
import { GatewayUnavailableError } from '../../shared/gateways/payment-gateway.ts';
import { advanceSession } from '../../shared/store/charge-store.ts';
import { bankAccountFor, commitStep, openedPayment, rejection } from '../checkout/charge-attempt.ts';

/**
 * Closing a USD processor session: its pending payment is cancelled at the processor first. If the processor cannot
 * cancel, 503 and nothing changes; if it had already charged, 409. A payment the buyer had opened becomes a failed
 * transaction (charge.failed) in the same write that closes the session; it is not a failure of the buyer.
 */
export async function closeWithProcessor(deps: Deps, merchant: Merchant, session: Session, reason: ClosedReason, now: number): Promise<Session> {
  const gateway = deps.gateways(session.gateway);
  const account = await bankAccountFor(deps, merchant, session).catch((error: unknown) => {
    // Without credentials no payment can have been opened at the processor: there is nothing to cancel.
    if (error instanceof ConflictError) return null;
    throw error;
  });
  if (account && gateway.cancelPayment) {
    const verdict = await gateway.cancelPayment(session.reference, account).catch((error: unknown) => {
      if (error instanceof GatewayUnavailableError) {
        throw new ApiError(503, 'processor_cancellation_failed', 'The pending payment could not be cancelled at the processor; nothing was changed. Retry shortly.', { cause: error });
      }
      throw error;
    });
    if (verdict === 'already_charged') {
      throw new ConflictError('processor_already_charged', 'The external processor has already charged this payment; the session cannot be expired.');
    }
  }

  const at = new Date(now).toISOString();
  const opened = await openedPayment(deps, session);
  if (!opened) return deps.sessions.close(session, reason, at, sessionExpiredEvent(session, reason, at));
  const cancelled = resolveTransaction(
    traced(opened, 'payment_cancelled', now),
    rejection('failed', SERVICE_CODES.PAYMENT_CANCELLED, `The session was closed (${reason}); the pending payment was cancelled at the processor.`),
    now,
  );
  const after = advanceSession(session, { status: 'expired', closedReason: reason, closedAt: at, lastTransaction: toTransactionResource(cancelled) });
  await commitStep(deps, { before: session, after, transaction: cancelled, events: [chargeEvent(cancelled, at), sessionExpiredEvent(after, reason, at)] }, null);
  return after;
}
