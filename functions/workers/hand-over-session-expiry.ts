import { defineWorker } from '../../shared/background/define-worker.ts';
import { handoverDelaySeconds } from '../../shared/domain/expiry-timing.ts';
import type { ExpiryMessage } from './expire-sessions.ts';
import { queuesFromEnvironment } from '../../shared/background/queues-from-environment.ts';

export interface ExpirySchedulePayload {
  merchantId: string;
  reference: string;
  expiresAt: string;
}

/**
 * Invoked by the session's schedule, SCHEDULE_LEAD_SECONDS before expiresAt (give or take Scheduler's lateness):
 * queues the expiry with the exact delay still remaining, so it runs within about a second of expiresAt.
 */
export const { build, handler } = defineWorker('handOverSessionExpiry', async (payload: ExpirySchedulePayload, deps): Promise<void> => {
  const delaySeconds = handoverDelaySeconds(Date.parse(payload.expiresAt), deps.clock.now());
  await deps.queues.sessionExpiry.send({ reference: payload.reference } satisfies ExpiryMessage, { delaySeconds });
}, { queues: queuesFromEnvironment });
