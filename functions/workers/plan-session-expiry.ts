import { EventType } from '@aws-lambda-powertools/batch';
import type { DynamoDBRecord } from 'aws-lambda';
import { defineRecordWorker } from '../../shared/background/define-record-worker.ts';
import type { WorkerDeps } from '../../shared/background/define-worker.ts';
import { newImageOf } from '../../shared/background/stream-image.ts';
import { expiryScheduleName, planExpiry } from '../../shared/domain/expiry-timing.ts';
import type { SessionStatus } from '../../shared/domain/session-state.ts';
import type { ExpiryMessage } from './expire-sessions.ts';
import { schedulerFromEnvironment } from '../../shared/background/scheduler-from-environment.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';

/**
 * Keeps each session's expiry timer in step with the session, from the table's stream, so creating or closing a
 * session stays one write and no API handler talks to the scheduler.
 */
async function plan(record: DynamoDBRecord, deps: WorkerDeps<'planSessionExpiry'>): Promise<void> {
  const item = newImageOf(record);
  if (!item || item.type !== 'session' || (record.eventName !== 'INSERT' && record.eventName !== 'MODIFY')) return;
  const reference = item.reference as string;
  const merchantId = item.merchantId as string;
  const expiresAt = Date.parse(item.expiresAt as string);
  const decision = planExpiry(record.eventName, { status: item.status as SessionStatus, expiresAt }, deps.clock.now());
  switch (decision.kind) {
    case 'schedule':
      return deps.scheduler.schedule(expiryScheduleName(reference), decision.at, { merchantId, reference, expiresAt: item.expiresAt });
    case 'queue':
      return deps.queues.sessionExpiry.send({ reference } satisfies ExpiryMessage, { delaySeconds: decision.delaySeconds });
    case 'cancel':
      return deps.scheduler.cancel(expiryScheduleName(reference));
    case 'none':
      return;
  }
}

export const { build, handler } = defineRecordWorker('planSessionExpiry', EventType.DynamoDBStreams, plan, { scheduler: schedulerFromEnvironment, queues: queuesFromEnvironment });
