import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { defineWorker } from '../../shared/background/define-worker.ts';
import type { Deps } from '../../shared/deps.ts';
import { sessionExpiredEvent } from '../../shared/domain/events.ts';
import { handoverDelaySeconds } from '../../shared/domain/expiry-timing.ts';
import { stateOf } from '../../shared/domain/session.ts';
import { decideTimedExpiry, isFinal } from '../../shared/domain/session-state.ts';
import { ConditionFailedError } from '../../shared/store/conditions.ts';

export interface ExpiryMessage {
  reference: string;
}

/** A charge racing the expiry changes the session's version; the loser reads again and decides again. */
const MAX_DECISIONS = 3;

/**
 * The timed expiry: closes the session with reason expired and writes session.expired in the same transaction,
 * unless it is already closed or completed (idempotent: nothing happens twice) or a charge is at the bank (the
 * charge's outcome decides then).
 */
async function expire(record: SQSRecord, deps: Deps): Promise<void> {
  const { reference } = JSON.parse(record.body) as ExpiryMessage;
  for (let attempt = 1; ; attempt++) {
    const session = await deps.sessions.get(reference);
    if (!session) return;
    const now = deps.clock.now();
    const expiresAt = Date.parse(session.expiresAt);
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
      await deps.sessions.close(session, decision.reason, closedAt, sessionExpiredEvent(session, decision.reason, closedAt));
      return;
    } catch (error) {
      if (!(error instanceof ConditionFailedError) || attempt >= MAX_DECISIONS) throw error;
    }
  }
}

export const { build, handler } = defineWorker('expireSessions', (event: SQSEvent, deps): Promise<SQSBatchResponse> =>
  processPartialResponse(event, (record: SQSRecord) => expire(record, deps), new BatchProcessor(EventType.SQS), { throwOnFullBatchFailure: false }),
);
