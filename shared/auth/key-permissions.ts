/**
 * Which dashboard role may manage which API key. A live secret key (sk_live_) moves real money (charges, refunds),
 * so only admins, who may refund in the dashboard, roll or revoke it, as on Stripe where only administrators manage
 * live secret keys; developers manage test keys, read-only (rk_) and publishable (pk_) keys. Pure, no imports but
 * types: the API (shared/dashboard/key-access.ts) and the dashboard's developers page read the same rule.
 */
import type { Role } from '../domain/roles.ts';
import type { Mode } from '../domain/session-state.ts';

/** A secret key of live mode: the one key that moves real money. */
export const movesMoney = (key: { kind: string; mode: Mode }): boolean => key.kind === 'secret' && key.mode === 'live';

/**
 * The least role that may roll or revoke the key (and so see a new secret of it).
 *
 * @example
 * leastRoleToManageKey({ kind: 'secret', mode: 'live' })  // 'admin'
 * leastRoleToManageKey({ kind: 'secret', mode: 'test' })  // 'developer'
 */
export const leastRoleToManageKey = (key: { kind: string; mode: Mode }): Role => (movesMoney(key) ? 'admin' : 'developer');
