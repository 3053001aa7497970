/**
 * Dashboard sessions, kept by the API rather than trusted to the token alone: every token the sign-in routes hand out
 * starts a session item (keyed by the token's SHA-256), and a token is taken only while its session lives. Sign-out
 * deletes it (the token is refused at once, though its signature and expiry are still good: Cognito ID tokens cannot
 * be revoked), IDLE_TIMEOUT_MS without a call ends it, and it records whether the sign-in went through an
 * authenticator app's code, which an admin needs for anything but enrolling one. Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import type { Role } from '../domain/roles.ts';
import type { DashboardSession } from '../store/dashboard-session-store.ts';

/**
 * Fifteen minutes without a call to the API end a session: PCI DSS 8.2.8's bound. Dashboard admins load bank
 * credentials, roll keys and refund, so the dashboard is held to it although it shows no more than a last four.
 */
export const IDLE_TIMEOUT_MS = 15 * 60_000;
/** A call records its time only when the last record is older than this: one write a minute at most per session. */
export const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

/** The session's key: a token is never stored, only its SHA-256 (tokens are random and long: no dictionary reaches one). */
export const sessionIdOf = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** Whether the session is still open at `now`. */
export const sessionOpen = (session: DashboardSession, now: number): boolean => now - session.lastSeenAt <= IDLE_TIMEOUT_MS && now < session.expiresAt;

/** Whether this call should record its time (see ACTIVITY_WRITE_INTERVAL_MS). */
export const activityDue = (session: DashboardSession, now: number): boolean => now - session.lastSeenAt >= ACTIVITY_WRITE_INTERVAL_MS;

/** Roles that must sign in with an authenticator app: admins hold bank credentials, keys, refunds and webhook targets. */
export const mfaRequiredFor = (role: Role): boolean => role === 'admin';

/** Whether the session's user must still enrol (or sign in with) an authenticator app before anything else. */
export const mfaOutstanding = (role: Role, session: Pick<DashboardSession, 'mfa'>): boolean => mfaRequiredFor(role) && !session.mfa;
