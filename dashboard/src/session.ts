/**
 * The signed-in user: the API's token, when it expires, and who the user is. Kept in sessionStorage (this tab only,
 * gone when the tab closes; a reload keeps it). The data mode (live or test) is remembered across sessions.
 */
import type { z } from 'zod';
import type { DashboardUserSchema } from '../../shared/schemas/dashboard-responses.ts';

export type DashboardUser = z.output<typeof DashboardUserSchema>;
export type Role = DashboardUser['role'];
export type Mode = 'live' | 'test';

export interface SignedIn {
  token: string;
  expiresAt: string;
  user: DashboardUser;
}

const SESSION_KEY = 'svc.dashboard.session';
const MODE_KEY = 'svc.dashboard.mode';
const ROLE_ORDER: Role[] = ['read_only', 'developer', 'admin'];

export function currentSession(): SignedIn | null {
  const stored = sessionStorage.getItem(SESSION_KEY);
  if (!stored) return null;
  try {
    const session = JSON.parse(stored) as SignedIn;
    return Date.parse(session.expiresAt) > Date.now() ? session : null;
  } catch {
    return null;
  }
}

export function saveSession(session: SignedIn): void {
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(SESSION_KEY);
}

export const currentMode = (): Mode => (localStorage.getItem(MODE_KEY) === 'test' ? 'test' : 'live');
export const setMode = (mode: Mode): void => localStorage.setItem(MODE_KEY, mode);

/** Whether the signed-in user's role is at least `minimum` (read_only < developer < admin), as the API orders them. */
export function can(minimum: Role): boolean {
  const session = currentSession();
  return session !== null && ROLE_ORDER.indexOf(session.user.role) >= ROLE_ORDER.indexOf(minimum);
}
