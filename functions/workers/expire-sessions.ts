import { EventType } from '@aws-lambda-powertools/batch';
import type { SQSRecord } from 'aws-lambda';
import { requireMerchant } from '../../shared/admin/merchant-admin.ts';
import { defineRecordWorker } from '../../shared/background/define-record-worker.ts';
import type { WorkerDeps } from '../../shared/background/define-worker.ts';
import { handoverDelaySeconds } from '../../shared/domain/expiry-timing.ts';
import { stateOf, type Session } from '../../shared/domain/session.ts';
import { decideTimedExpiry, isFinal, isInFlight } from '../../shared/domain/session-state.ts';
import { closeSession } from '../../shared/payments/close-session.ts';
import { isVerifying, secondsToNextSearch } from '../../shared/payments/p2c-verification.ts';
import { RECONCILE_AFTER_MS, settleStaleAttempt } from '../../shared/payments/stale-attempts.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';

export interface ExpiryMessage {
  reference: string;
}

/**
 * The timed expiry: closes the session with reason expired and writes session.expired in the same transaction,
 * unless it is already closed or completed (idempotent: nothing happens twice). An attempt left in flight is settled
 * first (an OTP not confirmed by expiresAt ends declined; a charge pending at the bank is asked about), because
 * nobody may ever reopen the page to do it; one still at the bank is looked at again once reconciliation is due. A
 * P2C reference being verified is searched again at each re-check, before expiry too (the submitting request queues
 * the first): the session stays in flight meanwhile, so it does not expire under it.
 * A USD session is closed through the processor, which cancels its pending payment.
 */
async function expire(record: SQSRecord, deps: WorkerDeps<'expireSessions'>): Promise<void> {
  const { reference } = JSON.parse(record.body) as ExpiryMessage;
  const now = deps.clock.now();
  const merchant = (session: Session) => requireMerchant(deps.merchants, session.merchantId);
  const result = await closeSession(deps, {
    read: () => deps.sessions.get(reference),
    decide: async (read) => {
      let session = read;
      const expiresAt = Date.parse(session.expiresAt);
      // A P2C reference being verified is searched again when due, before expiry too: nobody may read the page.
      if (isInFlight(session.status) && (now >= expiresAt || isVerifying(session))) {
        session = await settleStaleAttempt(deps, await merchant(session), session, now);
        if (isInFlight(session.status)) {
          await deps.queues.sessionExpiry.send({ reference } satisfies ExpiryMessage, { delaySeconds: await inFlightDelaySeconds(deps, session, now) });
          return { kind: 'keep', session };
        }
      }
      const decision = decideTimedExpiry(stateOf(session), now);
      if (decision.kind === 'close') return { kind: 'close', reason: decision.reason, session };
      // Early (clocks differ by a second, or a P2C re-check's message): come back when it is due. A P2C chain that
      // ended may add one such message beside the scheduled one; closing is conditional, so it closes once.
      if (!isFinal(session.status) && now < expiresAt) {
        await deps.queues.sessionExpiry.send({ reference } satisfies ExpiryMessage, { delaySeconds: handoverDelaySeconds(expiresAt, now) });
      }
      return { kind: 'keep', session };
    },
    merchant,
    now,
  });
  if (result?.closed) deps.metrics.expiry((now - Date.parse(result.session.expiresAt)) / 1000);
}

/** When to look at an attempt still in flight again: a P2C reference at its next search, anything else once reconciliation is due. */
async function inFlightDelaySeconds(deps: WorkerDeps<'expireSessions'>, session: Session, now: number): Promise<number> {
  const pending = isVerifying(session) ? await deps.transactions.get(session.lastTransaction!.reference) : null;
  return pending ? secondsToNextSearch(pending, now) : RECONCILE_AFTER_MS / 1000;
}

export const { build, handler } = defineRecordWorker('expireSessions', EventType.SQS, expire, { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment, queues: queuesFromEnvironment });
