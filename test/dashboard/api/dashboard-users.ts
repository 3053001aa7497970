/**
 * Dashboard users for the API tests: made as the CLI makes them (inviteUser), given a known password, and signed in
 * through the API like the dashboard page.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Role } from '../../../shared/domain/roles.ts';
import { inviteUser } from '../../../shared/dashboard/user-admin.ts';
import type { TestSandbox } from '../../support/sandbox.ts';
import { testAuthenticator, type TestAuthenticator } from '../../support/totp-codes.ts';

export const TEST_PASSWORD = 'Correct-Horse-42';

/**
 * An email no other test uses (the table is shared by the run). A UUID, not pid-time-counter digits: those joined
 * made 19-digit runs that the leak scan rightly read as card numbers when they happened to pass Luhn.
 */
export const uniqueEmail = (label: string): string => `${label}-${randomUUID()}@example.com`;

export interface SignedIn {
  userId: string;
  email: string;
  token: string;
  /** The authenticator app of a user signed in with `mfa`. */
  app?: TestAuthenticator;
  /** A request with this user's token (and Svc-Mode when given). */
  request(method: string, path: string, options?: { body?: unknown; mode?: 'test' | 'live'; headers?: Record<string, string> }): ReturnType<TestSandbox['request']>;
}

/**
 * A user of `merchantId` with `role` and TEST_PASSWORD, signed in. `mfa` (default: for admins, who need it for anything
 * but enrolling) adds an authenticator app through the API in that session, as the dashboard's Security page does.
 */
export async function signedInUser(sandbox: TestSandbox, merchantId: string, role: Role, { mfa = role === 'admin' }: { mfa?: boolean } = {}): Promise<SignedIn> {
  const { user } = await inviteUser(sandbox.deps, { merchantId, email: uniqueEmail(role), role, now: sandbox.clock.now() });
  await sandbox.userDirectory.setPassword(user.id, TEST_PASSWORD);
  const res = await sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email: user.email, password: TEST_PASSWORD } });
  expect(res.status, res.text).toBe(200);
  const token = res.body.token as string;
  const signedIn: SignedIn = {
    userId: user.id,
    email: user.email,
    token,
    request: (method, path, { body, mode, headers = {} } = {}) =>
      sandbox.request(method, path, { body, headers: { authorization: `Bearer ${token}`, ...(mode && { 'svc-mode': mode }), ...headers } }),
  };
  if (mfa) {
    const started = await signedIn.request('POST', '/v1/dashboard/me/mfa/enrolment', { body: { password: TEST_PASSWORD } });
    expect(started.status, started.text).toBe(200);
    signedIn.app = testAuthenticator(started.body.secret, sandbox.authenticatorClock);
    const confirmed = await signedIn.request('POST', '/v1/dashboard/me/mfa/enrolment/confirm', { body: { enrolmentSession: started.body.enrolmentSession, code: await signedIn.app.nextCode() } });
    expect(confirmed.status, confirmed.text).toBe(200);
  }
  return signedIn;
}
