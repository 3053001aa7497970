import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { signedInUser, type SignedIn } from './dashboard-users.ts';

/**
 * Two admins of a merchant removing each other at the same moment: each request alone is allowed (the other admin
 * remains), together they would leave the merchant with no admin. The server must refuse one of them.
 */
describe('the last admin under races', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox?.stop());

  const ROUNDS = 6;
  const changes: Record<string, (by: SignedIn, id: string) => ReturnType<SignedIn['request']>> = {
    demote: (by, id) => by.request('PATCH', `/v1/dashboard/users/${id}`, { body: { role: 'developer' } }),
    remove: (by, id) => by.request('DELETE', `/v1/dashboard/users/${id}`),
  };

  it.each(Object.keys(changes))('two admins who %s each other at once: an admin always remains, and the loser gets 409 last_admin or 403, never a 500', async (change) => {
    for (let round = 0; round < ROUNDS; round++) {
      const { merchant } = await sandbox.newMerchant();
      const [a, b] = await Promise.all([signedInUser(sandbox, merchant.id, 'admin'), signedInUser(sandbox, merchant.id, 'admin')]);
      const answers = await Promise.all([changes[change]!(a, b.userId), changes[change]!(b, a.userId)]);
      const admins = (await sandbox.deps.users.listForMerchant(merchant.id)).filter((u) => u.role === 'admin');
      expect(admins.length, `round ${round}: ${answers.map((r) => `${r.status} ${r.text}`).join(' | ')}`).toBe(1);
      // One change went through; the other was refused as the last admin (or, checked after the first landed, its
      // caller was no longer an admin, or no longer a user).
      expect(answers.map((r) => r.status).sort()).toEqual([200, expect.any(Number)]);
      const loser = answers.find((r) => r.status !== 200)!;
      expect([401, 403, 409], loser.text).toContain(loser.status);
      if (loser.status === 409) expect(loser.body.code).toBe('last_admin');
    }
  }, 180_000);
});
