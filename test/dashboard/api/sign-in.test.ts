import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteUser } from '../../../shared/dashboard/user-admin.ts';
import { MAX_FAILURES } from '../../../shared/domain/sign-in-lockout.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { signedInUser, TEST_PASSWORD, uniqueEmail } from './dashboard-users.ts';

describe('dashboard sign-in (sandbox directory)', () => {
  let sandbox: TestSandbox;
  let merchantId: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    merchantId = (await sandbox.newMerchant()).merchant.id;
  });
  afterAll(() => sandbox.stop());

  const signIn = (email: string, password: string) => sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email, password } });

  it('answers a token that GET /v1/dashboard/me accepts, naming the user and merchant', async () => {
    const admin = await signedInUser(sandbox, merchantId, 'admin');
    const me = await admin.request('GET', '/v1/dashboard/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ id: admin.userId, email: admin.email, role: 'admin', merchantId });
    expect(me.body.merchant.id).toBe(merchantId);
  });

  it('matches the email whatever its case and surrounding spaces', async () => {
    const user = await signedInUser(sandbox, merchantId, 'read_only');
    const res = await signIn(`  ${user.email.toUpperCase()} `, TEST_PASSWORD);
    expect(res.status).toBe(200);
  });

  it('refuses a wrong password and an unknown email with the same answer', async () => {
    const user = await signedInUser(sandbox, merchantId, 'developer');
    const wrong = await signIn(user.email, 'Not-The-Password-1');
    const unknown = await signIn(uniqueEmail('nobody'), 'Not-The-Password-1');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ ...unknown.body, requestId: wrong.body.requestId });
    expect(wrong.body.code).toBe('invalid_credentials');
  });

  it('locks an email after repeated failures, known or not, and unlocks when Retry-After has passed, not at the window end', async () => {
    const user = await signedInUser(sandbox, merchantId, 'developer');
    const unknownEmail = uniqueEmail('ghost');
    for (let i = 0; i < MAX_FAILURES; i++) {
      expect((await signIn(user.email, 'Wrong-Password-123')).status).toBe(401);
      expect((await signIn(unknownEmail, 'Wrong-Password-123')).status).toBe(401);
    }
    const locked = await signIn(user.email, TEST_PASSWORD);
    const lockedUnknown = await signIn(unknownEmail, TEST_PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('too_many_sign_in_attempts');
    expect(lockedUnknown.status).toBe(429);
    // Locked by this window's failures: the rest of this window and the whole next one.
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(15 * 60);
    sandbox.advance(retryAfter - 60);
    expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(429);
    sandbox.advance(61);
    expect((await signIn(user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('evaluates at most MAX_FAILURES of 30 parallel wrong guesses: the rest are 429, and the right password after them gets no token', async () => {
    const user = await signedInUser(sandbox, merchantId, 'developer');
    const guesses = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(user.email, `Wrong-Password-${i}`)));
    const statuses = guesses.map((res) => res.status);
    // A 401 is a guess whose password was checked; a 429 one refused before any check.
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(MAX_FAILURES);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    const right = await signIn(user.email, TEST_PASSWORD);
    expect(right.status).toBe(429);
    expect(right.body.token).toBeUndefined();
  });

  it('makes an invited user replace the temporary password before answering a token', async () => {
    const { user, temporaryPassword } = await inviteUser(sandbox.deps, { merchantId, email: uniqueEmail('invited'), role: 'developer', now: sandbox.clock.now() });
    expect(temporaryPassword).toBeTruthy();
    const first = await signIn(user.email, temporaryPassword!);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ challenge: 'new_password', challengeSession: expect.any(String) });
    const weak = await sandbox.request('POST', '/v1/dashboard/auth/new-password', { body: { challengeSession: first.body.challengeSession, newPassword: 'short' } });
    expect(weak.status).toBe(400);
    expect(weak.body.field).toBe('newPassword');
    const set = await sandbox.request('POST', '/v1/dashboard/auth/new-password', { body: { challengeSession: first.body.challengeSession, newPassword: 'A-Much-Better-Pass-9' } });
    expect(set.status).toBe(200);
    expect(set.body.user.id).toBe(user.id);
    expect((await signIn(user.email, temporaryPassword!)).status).toBe(401);
    expect((await signIn(user.email, 'A-Much-Better-Pass-9')).status).toBe(200);
  });

  it("answers a new_password challenge only at /auth/new-password, and only once: the MFA route and a replay are refused, the password kept", async () => {
    const { user, temporaryPassword } = await inviteUser(sandbox.deps, { merchantId, email: uniqueEmail('challenged'), role: 'developer', now: sandbox.clock.now() });
    const first = await signIn(user.email, temporaryPassword!);
    expect(first.body.challenge).toBe('new_password');
    const viaMfa = await sandbox.request('POST', '/v1/dashboard/auth/mfa', { body: { challengeSession: first.body.challengeSession, code: '123456' } });
    expect(viaMfa.status).toBe(401);
    expect(viaMfa.body.token).toBeUndefined();
    expect((await signIn(user.email, '123456')).status).toBe(401);
    expect((await signIn(user.email, temporaryPassword!)).body.challenge).toBe('new_password');

    const set = await sandbox.request('POST', '/v1/dashboard/auth/new-password', { body: { challengeSession: first.body.challengeSession, newPassword: 'A-Much-Better-Pass-9' } });
    expect(set.status, set.text).toBe(200);
    const replay = await sandbox.request('POST', '/v1/dashboard/auth/new-password', { body: { challengeSession: first.body.challengeSession, newPassword: 'An-Attackers-Pass-77' } });
    expect(replay.status).toBe(401);
    expect(replay.body.token).toBeUndefined();
    expect((await signIn(user.email, 'An-Attackers-Pass-77')).status).toBe(401);
    expect((await signIn(user.email, 'A-Much-Better-Pass-9')).status).toBe(200);
  });

  it('refuses an expired token, a tampered token and an API key on a dashboard route', async () => {
    const user = await signedInUser(sandbox, merchantId, 'admin');
    const [header, payload] = user.token.split('.');
    const tampered = `${header}.${payload}.${'A'.repeat(43)}`;
    const res = await sandbox.request('GET', '/v1/dashboard/me', { headers: { authorization: `Bearer ${tampered}` } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_token');
    const { keys } = await sandbox.newMerchant();
    expect((await sandbox.request('GET', '/v1/dashboard/me', { key: keys.secretTest })).status).toBe(401);
    sandbox.advance(61 * 60);
    const expired = await user.request('GET', '/v1/dashboard/me');
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('invalid_token');
  });

  it('refuses a user token on a route the dashboard does not use', async () => {
    const admin = await signedInUser(sandbox, merchantId, 'admin');
    const res = await admin.request('POST', '/v1/sessions', { body: { amountMinor: 100, currency: 'VES' } });
    expect(res.status).toBe(401);
  });

  it('reads the mode from Svc-Mode (live by default) and refuses another value', async () => {
    const user = await signedInUser(sandbox, merchantId, 'read_only');
    expect((await user.request('GET', '/v1/sessions', { mode: 'test' })).status).toBe(200);
    const bad = await user.request('GET', '/v1/sessions', { headers: { 'svc-mode': 'staging' } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('Svc-Mode');
  });
});
