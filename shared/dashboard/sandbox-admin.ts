/**
 * The sandbox's seeded dashboard admin: one per seeded merchant, its email and password kept in a local file (0600)
 * beside the seeded keys, so `npm start` can print them every time.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomToken } from '../ids.ts';
import type { UserStore } from '../store/user-store.ts';
import type { LocalUserDirectory } from './local-user-directory.ts';
import { inviteUser } from './user-admin.ts';

export const SANDBOX_ADMIN_EMAIL = 'admin@sandbox.test';

export interface SandboxAdmin {
  email: string;
  password: string;
}

/**
 * The seeded admin of `merchantId`, made (or given a new password, when the file was lost) on first start.
 *
 * @example
 * const { email, password } = await seedSandboxAdmin({ users, userDirectory }, 'mer_123', '.sandbox/dashboard-admin.json', Date.now());
 */
export async function seedSandboxAdmin(
  stores: { users: UserStore; userDirectory: LocalUserDirectory },
  merchantId: string,
  file: string,
  now: number,
): Promise<SandboxAdmin> {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as SandboxAdmin;
  const admin: SandboxAdmin = { email: SANDBOX_ADMIN_EMAIL, password: `${randomToken(12)}-Sb1` };
  const existing = await stores.users.getByEmail(admin.email);
  const user = existing ?? (await inviteUser(stores, { merchantId, email: admin.email, role: 'admin', now })).user;
  await stores.userDirectory.setPassword(user.id, admin.password);
  writeFileSync(file, JSON.stringify(admin, null, 2), { mode: 0o600 });
  return admin;
}
