import { EventType } from '@aws-lambda-powertools/batch';
import type { SQSRecord } from 'aws-lambda';
import { requireMerchant } from '../../shared/admin/merchant-admin.ts';
import { defineRecordWorker } from '../../shared/background/define-record-worker.ts';
import type { WorkerDeps } from '../../shared/background/define-worker.ts';
import { sessionExpiredEvent } from '../../shared/domain/events.ts';
import { handoverDelaySeconds } from '../../shared/domain/expiry-timing.ts';
import { stateOf } from '../../shared/domain/session.ts';
import { decideTimedExpiry, isFinal, isInFlight } from '../../shared/domain/session-state.ts';
import { ConditionFailedError } from '../../shared/store/conditions.ts';
import { closeWithProcessor } from '../../shared/payments/processor-payments.ts';
import { RECONCILE_AFTER_MS, settleStaleAttempt } from '../../shared/payments/stale-attempts.ts';
import { cryptoFromEnvironment } from '../../shared/crypto/create-crypto.ts';
import { gatewaysFromEnvironment } from '../../shared/gateways/gateway-registry.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';

export interface ExpiryMessage {
  reference: string;
}

/** A charge racing the expiry changes the session's version; the loser reads again and decides again. */
const MAX_DECISIONS = 3;

/**
 * The timed expiry: closes the session with reason expired and writes session.expired in the same transaction,
 * unless it is already closed or completed (idempotent: nothing happens twice). An attempt left in flight is settled
 * first (an OTP not confirmed by expiresAt ends declined; a charge pending at the bank is asked about), because
 * nobody may ever reopen the page to do it; one still at the bank is looked at again once reconciliation is due.
 * A USD session is closed through the processor, which cancels its pending payment.
 */
async function expire(record: SQSRecord, deps: WorkerDeps<'expireSessions'>): Promise<void> {
  const { reference } = JSON.parse(record.body) as ExpiryMessage;
  for (let attempt = 1; ; attempt++) {
    let session = await deps.sessions.get(reference);
    if (!session) return;
    const now = deps.clock.now();
    const expiresAt = Date.parse(session.expiresAt);
    const merchant = () => requireMerchant(deps.merchants, session!.merchantId);
    if (isInFlight(session.status) && now >= expiresAt) {
      session = await settleStaleAttempt(deps, await merchant(), session, now);
      if (isInFlight(session.status)) {
        await deps.queues.sessionExpiry.send({ reference } satisfies ExpiryMessage, { delaySeconds: RECONCILE_AFTER_MS / 1000 });
        return;
      }
    }
    const decision = decideTimedExpiry(stateOf(session), now);
    if (decision.kind !== 'close') {
      // Early (clocks differ by a second): come back when it is due.
      if (!isFinal(session.status) && now < expiresAt) {
        await deps.queues.sessionExpiry.send({ reference } satisfies ExpiryMessage, { delaySeconds: handoverDelaySeconds(expiresAt, now) });
      }
      return;
    }
    const closedAt = new Date(now).toISOString();
    try {
      if (deps.gateways(session.gateway).cancelPayment) await closeWithProcessor(deps, await merchant(), session, decision.reason, now);
      else await deps.sessions.close(session, decision.reason, closedAt, sessionExpiredEvent(session, decision.reason, closedAt));
      deps.metrics.expiry((now - expiresAt) / 1000);
      return;
    } catch (error) {
      if (!(error instanceof ConditionFailedError) || attempt >= MAX_DECISIONS) throw error;
    }
  }
}

export const { build, handler } = defineRecordWorker('expireSessions', EventType.SQS, expire, { crypto: cryptoFromEnvironment, gateways: gatewaysFromEnvironment, queues: queuesFromEnvironment });
