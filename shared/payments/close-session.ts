/**
 * The close loop both expiries share: the merchant's (POST /v1/sessions/{reference}/expire) and the timed one
 * (workers/expire-sessions.ts). They differ only in what they decide on a session; reading it, closing it with its
 * session.expired event and deciding again after a lost race are the same rule.
 */
import { sessionExpiredEvent } from '../domain/events.ts';
import { GATEWAYS, type Merchant } from '../domain/merchant.ts';
import type { Session } from '../domain/session.ts';
import type { ClosedReason } from '../domain/session-state.ts';
import type { PaymentDeps } from '../deps.ts';
import { policies } from '../retry/policies.ts';
import { retry } from '../retry/retry.ts';
import { ConditionFailedError } from '../store/conditions.ts';
import { closeWithProcessor } from './processor-payments.ts';

/** What the caller makes of the session it was shown: close it with a reason, or leave it as it is. */
export type CloseDecision = { kind: 'close'; reason: ClosedReason; session: Session } | { kind: 'keep'; session: Session };

export interface CloseLoop {
  /** The session as it is now; null when there is none (nothing to close). */
  read: () => Promise<Session | null>;
  /** May settle the session first (an attempt left in flight) and decide on the settled one. */
  decide: (session: Session) => Promise<CloseDecision>;
  merchant: (session: Session) => Promise<Merchant>;
  now: number;
}

/**
 * Reads the session, lets `decide` look at it and closes it when told to: through the processor for a gateway
 * with pending payments (which cancels the payment), else by the store's conditional write. A lost write reads
 * again and decides again. Returns the session as left, and whether this call closed it; null when there was none.
 */
export async function closeSession(deps: PaymentDeps, { read, decide, merchant, now }: CloseLoop): Promise<{ session: Session; closed: boolean } | null> {
  // A charge racing the close changes the session's version: read again and decide again (versionRace).
  return retry(
    policies.versionRace,
    async () => {
      const current = await read();
      if (!current) return null;
      const decision = await decide(current);
      if (decision.kind === 'keep') return { session: decision.session, closed: false };
      const { session, reason } = decision;
      const closedAt = new Date(now).toISOString();
      const closed = GATEWAYS[session.gateway].pendingPayments
        ? await closeWithProcessor(deps, await merchant(session), session, reason, now)
        : await deps.sessions.close(session, reason, closedAt, sessionExpiredEvent(session, reason, closedAt));
      return { session: closed, closed: true };
    },
    { isRetryable: (error) => error instanceof ConditionFailedError },
  );
}
