/**
 * The sandbox's seeded dashboard admin: one per seeded merchant, its email and temporary password kept in a local file
 * (0600) beside the seeded keys, so `npm start` can print them until the admin chooses their own. The first sign-in
 * asks for a new password, as an invited user's does in the sandbox and in Cognito (NEW_PASSWORD_REQUIRED), and then,
 * an admin, for two-step verification.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomToken } from '../ids.ts';
import type { UserStore } from '../store/user-store.ts';
import type { LocalUserDirectory } from './local-user-directory.ts';
import { inviteUser } from './user-admin.ts';

export const SANDBOX_ADMIN_EMAIL = 'admin@sandbox.test';

export interface SandboxAdmin {
  email: string;
  /** The temporary password made at the first start (or when the file was lost). */
  password: string;
  /** Whether it still signs in: false once the admin chose their own at the first sign-in. */
  temporary: boolean;
}

/**
 * The seeded admin of `merchantId`, made (or given a new temporary password, when the file was lost) on first start.
 *
 * @example
 * const { email, password, temporary } = await seedSandboxAdmin({ users, userDirectory }, 'mer_123', '.sandbox/dashboard-admin.json', Date.now());
 */
export async function seedSandboxAdmin(
  stores: { users: UserStore; userDirectory: LocalUserDirectory },
  merchantId: string,
  file: string,
  now: number,
): Promise<SandboxAdmin> {
  if (existsSync(file)) {
    const admin = JSON.parse(readFileSync(file, 'utf8')) as Omit<SandboxAdmin, 'temporary'>;
    const user = await stores.users.getByEmail(admin.email);
    return { ...admin, temporary: user ? await stores.userDirectory.hasTemporaryPassword(user.id) : false };
  }
  const admin = { email: SANDBOX_ADMIN_EMAIL, password: `${randomToken(12)}-Sb1` };
  const existing = await stores.users.getByEmail(admin.email);
  const user = existing ?? (await inviteUser(stores, { merchantId, email: admin.email, role: 'admin', now })).user;
  await stores.userDirectory.setPassword(user.id, admin.password, { temporary: true });
  writeFileSync(file, JSON.stringify(admin, null, 2), { mode: 0o600 });
  return { ...admin, temporary: true };
}
