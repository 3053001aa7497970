import { defineWorker, type WorkerDeps } from '../../shared/background/define-worker.ts';
import { authenticationExpiringEvent, dueExpiringNotice, EXPIRING_NOTICE_DAYS } from '../../shared/domain/stored-card.ts';
import { ConditionFailedError } from '../../shared/store/conditions.ts';

const DAY_MS = 86_400_000;

/**
 * Once a day: for every card whose verification's estimated end is within the largest notice (15 days), sends the
 * card.authentication_expiring notice that is due (15, 7, 1 days), recorded on the card in the same transaction so
 * each is sent once. A card that cannot be written now (changed meanwhile) is decided again on the next run.
 */
export const { build, handler } = defineWorker('notifyCardVerifications', async (_event: unknown, deps): Promise<{ notices: number }> => {
  const now = deps.clock.now();
  const horizon = new Date(now + Math.max(...EXPIRING_NOTICE_DAYS) * DAY_MS).toISOString();
  const tokens = await deps.cards.verificationsEndingBetween(new Date(now).toISOString(), horizon);
  let notices = 0;
  for (const svcToken of tokens) {
    try {
      if (await notify(deps, svcToken, now)) notices++;
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
  return { notices };
});

async function notify(deps: WorkerDeps<'notifyCardVerifications'>, svcToken: string, now: number): Promise<boolean> {
  const card = await deps.cards.get(svcToken);
  const due = card ? dueExpiringNotice(card, now) : null;
  if (!card || !due) return false;
  const noted = { ...card, authNoticesSent: [...card.authNoticesSent, due.days], version: card.version + 1 };
  await deps.cards.commit([deps.cards.updateItem(noted, card.version), deps.cards.event(card.merchantId, authenticationExpiringEvent(card, due.daysLeft, new Date(now).toISOString()))]);
  return true;
}
