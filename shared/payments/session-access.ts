import type { AuthContext } from '../auth/authenticator.ts';
import type { CoreDeps } from '../deps.ts';
import type { Session } from '../domain/session.ts';
import { requireOwned } from '../auth/ownership.ts';

/**
 * A session of the caller's merchant, or 404. Another merchant's session is indistinguishable from a missing one.
 * `anyMode` lets expire see the other mode's sessions, because the spec answers those with 409, not 404.
 */
export async function findSession(deps: CoreDeps, auth: AuthContext, reference: string, { anyMode = false } = {}): Promise<Session> {
  return requireOwned(await deps.sessions.get(reference), auth, { resource: 'session', field: 'reference' }, { anyMode });
}
