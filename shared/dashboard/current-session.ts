import type { DashboardSessionStore } from '../store/dashboard-session-store.ts';
import { activityDue, sessionIdOf, sessionOpen } from './dashboard-sessions.ts';

/** The session a call's token belongs to, as the route handlers see it. */
export interface SignedInSession {
  /** The token's SHA-256: what sign-out ends and MFA enrolment marks. */
  id: string;
  mfa: boolean;
}

/**
 * The open session of `token` for `userId`, recording this call as activity; null when it was signed out, idled out,
 * or never started (a token no sign-in route handed out).
 */
export async function currentSession(sessions: DashboardSessionStore, token: string, userId: string, now: number): Promise<SignedInSession | null> {
  const id = sessionIdOf(token);
  const session = await sessions.get(id);
  if (!session || session.userId !== userId || !sessionOpen(session, now)) return null;
  if (activityDue(session, now)) await sessions.touch(id, now);
  return { id, mfa: session.mfa };
}
