import type { AuthContext } from '../../shared/auth/authenticator.ts';
import type { CoreDeps } from '../../shared/deps.ts';
import type { Session } from '../../shared/domain/session.ts';
import { NotFoundError } from '../../shared/errors.ts';

/**
 * A session of the caller's merchant, or 404. Another merchant's session is indistinguishable from a missing one.
 * `anyMode` lets expire see the other mode's sessions, because the spec answers those with 409, not 404.
 */
export async function findSession(deps: CoreDeps, auth: AuthContext, reference: string, { anyMode = false } = {}): Promise<Session> {
  const session = await deps.sessions.get(reference);
  if (!session || session.merchantId !== auth.merchant.id || (!anyMode && session.mode !== auth.mode)) {
    throw new NotFoundError('session', 'reference');
  }
  return session;
}
