import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILURES } from '../../../shared/domain/sign-in-lockout.ts';
import { totpCode } from '../../../shared/dashboard/totp.ts';
import { keys } from '../../../shared/store/keys.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { testAuthenticator, type TestAuthenticator } from '../../support/totp-codes.ts';
import { signedInUser, TEST_PASSWORD, type SignedIn } from './dashboard-users.ts';

// Codes are real TOTP codes, each used once: a test moves the authenticator clock to the next 30-second step.
describe('dashboard MFA (TOTP) enrolment and sign-in, sandbox directory', { timeout: 120_000 }, () => {
  let sandbox: TestSandbox;
  let merchantId: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    merchantId = (await sandbox.newMerchant()).merchant.id;
  });
  afterAll(() => sandbox.stop());

  const signIn = (email: string, password = TEST_PASSWORD) => sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email, password } });
  const answerMfa = (challengeSession: string, code: string) => sandbox.request('POST', '/v1/dashboard/auth/mfa', { body: { challengeSession, code } });

  /** A signed-in user who turned MFA on through the API, with the app that holds their secret. */
  async function userWithMfa(role: 'admin' | 'read_only' = 'read_only'): Promise<{ user: SignedIn; app: TestAuthenticator; secret: string }> {
    const user = await signedInUser(sandbox, merchantId, role, { mfa: false });
    const started = await user.request('POST', '/v1/dashboard/me/mfa/enrolment', { body: { password: TEST_PASSWORD } });
    expect(started.status, started.text).toBe(200);
    const app = testAuthenticator(started.body.secret, sandbox.authenticatorClock);
    const confirmed = await user.request('POST', '/v1/dashboard/me/mfa/enrolment/confirm', { body: { enrolmentSession: started.body.enrolmentSession, code: await app.nextCode() } });
    expect(confirmed.status, confirmed.text).toBe(200);
    return { user, app, secret: started.body.secret };
  }

  it('enrols an app: secret and otpauth URI, refused with a wrong code, on with the right one, audited, the secret sealed', async () => {
    const user = await signedInUser(sandbox, merchantId, 'admin', { mfa: false });
    expect((await user.request('GET', '/v1/dashboard/me/mfa')).body).toEqual({ enabled: false });

    const started = await user.request('POST', '/v1/dashboard/me/mfa/enrolment', { body: { password: TEST_PASSWORD } });
    expect(started.status, started.text).toBe(200);
    expect(started.headers.get('cache-control')).toContain('no-store');
    const { secret, otpauthUri, enrolmentSession } = started.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('svc');
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);
    expect(enrolmentSession).not.toContain(secret);

    const app = testAuthenticator(secret, sandbox.authenticatorClock);
    const code = await app.nextCode();
    const wrong = await user.request('POST', '/v1/dashboard/me/mfa/enrolment/confirm', { body: { enrolmentSession, code: code === '000000' ? '111111' : '000000' } });
    expect(wrong.status, wrong.text).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'incorrect_mfa_code', field: 'code' });
    expect((await user.request('GET', '/v1/dashboard/me/mfa')).body).toEqual({ enabled: false });

    const confirmed = await user.request('POST', '/v1/dashboard/me/mfa/enrolment/confirm', { body: { enrolmentSession, code } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toEqual({ enabled: true });
    expect((await user.request('GET', '/v1/dashboard/me/mfa')).body).toEqual({ enabled: true });

    const audit = await user.request('GET', '/v1/dashboard/audit-log');
    expect(audit.body.data.find((entry: { action: string }) => entry.action === 'user.mfa_enabled')).toMatchObject({ userId: user.userId, target: user.userId });
    expect(audit.text).not.toContain(secret);

    const { Item } = await sandbox.deps.db.send(new GetCommand({ TableName: sandbox.deps.config.tableName, Key: keys.localLogin(user.userId) }));
    expect(Item?.mfaSecret).toMatch(/^local1:/);
    expect(JSON.stringify(Item)).not.toContain(secret);
  });

  it('asks a user with MFA on for a code at sign-in: a wrong code refused, the right one signs in, the same code never twice', async () => {
    const { user, app } = await userWithMfa();
    const first = await signIn(user.email);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ challenge: 'mfa', challengeSession: expect.any(String) });

    const code = await app.nextCode();
    const wrong = await answerMfa(first.body.challengeSession, code === '123456' ? '654321' : '123456');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('invalid_credentials');

    const signedIn = await answerMfa(first.body.challengeSession, code);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.user.id).toBe(user.userId);
    const me = await sandbox.request('GET', '/v1/dashboard/me', { headers: { authorization: `Bearer ${signedIn.body.token}` } });
    expect(me.status).toBe(200);

    // Replay: a second sign-in with the code just used (still inside its 30-second window) is refused, saying the
    // code was used (not that it is wrong), and the same challenge then takes the app's next code.
    const again = await signIn(user.email);
    const replayed = await answerMfa(again.body.challengeSession, code);
    expect(replayed.status, replayed.text).toBe(400);
    expect(replayed.body).toMatchObject({ code: 'mfa_code_already_used', field: 'code', message: expect.stringMatching(/already used: wait for .* next one/) });
    expect(replayed.body.token).toBeUndefined();
    expect((await answerMfa(again.body.challengeSession, await app.nextCode())).status).toBe(200);
  });

  it('takes an mfa challenge session once: a replay with a fresh code gets no second token, nor does /auth/new-password', async () => {
    const { user, app } = await userWithMfa();
    const challenge = await signIn(user.email);
    const asPassword = await sandbox.request('POST', '/v1/dashboard/auth/new-password', { body: { challengeSession: challenge.body.challengeSession, newPassword: 'An-Attackers-Pass-77' } });
    expect(asPassword.status).toBe(401);
    expect((await signIn(user.email, 'An-Attackers-Pass-77')).status).toBe(401);
    expect((await answerMfa(challenge.body.challengeSession, await app.nextCode())).status).toBe(200);
    const replay = await answerMfa(challenge.body.challengeSession, await app.nextCode());
    expect(replay.status).toBe(401);
    expect(replay.body.token).toBeUndefined();
  });

  it('does not take the code that confirmed the enrolment for a sign-in', async () => {
    const user = await signedInUser(sandbox, merchantId, 'developer');
    const started = await user.request('POST', '/v1/dashboard/me/mfa/enrolment', { body: { password: TEST_PASSWORD } });
    const code = totpCode(started.body.secret, sandbox.authenticatorClock.now());
    expect((await user.request('POST', '/v1/dashboard/me/mfa/enrolment/confirm', { body: { enrolmentSession: started.body.enrolmentSession, code } })).status).toBe(200);
    const challenge = await signIn(user.email);
    const reused = await answerMfa(challenge.body.challengeSession, code);
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('mfa_code_already_used');
  });

  it('refuses to start with a wrong password (400, not 401: the user stays signed in) and when MFA is already on', async () => {
    const user = await signedInUser(sandbox, merchantId, 'read_only');
    const wrong = await user.request('POST', '/v1/dashboard/me/mfa/enrolment', { body: { password: 'Not-The-Password-1' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'incorrect_password', field: 'password' });
    const missing = await user.request('POST', '/v1/dashboard/me/mfa/enrolment', { body: {} });
    expect(missing.status).toBe(400);

    const { user: enrolled } = await userWithMfa();
    const twice = await enrolled.request('POST', '/v1/dashboard/me/mfa/enrolment', { body: { password: TEST_PASSWORD } });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('mfa_already_enabled');
  });

  it("refuses another user's enrolment session, a tampered one and an expired one", async () => {
    const owner = await signedInUser(sandbox, merchantId, 'read_only');
    const other = await signedInUser(sandbox, merchantId, 'admin', { mfa: false });
    const started = await owner.request('POST', '/v1/dashboard/me/mfa/enrolment', { body: { password: TEST_PASSWORD } });
    const code = totpCode(started.body.secret, sandbox.authenticatorClock.now());
    const stolen = await other.request('POST', '/v1/dashboard/me/mfa/enrolment/confirm', { body: { enrolmentSession: started.body.enrolmentSession, code } });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toMatchObject({ code: 'mfa_enrolment_expired', field: 'enrolmentSession' });
    const tampered = await owner.request('POST', '/v1/dashboard/me/mfa/enrolment/confirm', { body: { enrolmentSession: `${started.body.enrolmentSession.slice(0, -4)}AAAA`, code } });
    expect(tampered.body.code).toBe('mfa_enrolment_expired');
    expect((await other.request('GET', '/v1/dashboard/me/mfa')).body).toEqual({ enabled: false });

    sandbox.advance(11 * 60);
    const late = await owner.request('POST', '/v1/dashboard/me/mfa/enrolment/confirm', { body: { enrolmentSession: started.body.enrolmentSession, code } });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('mfa_enrolment_expired');
    expect((await owner.request('GET', '/v1/dashboard/me/mfa')).body).toEqual({ enabled: false });
  });

  it('turns MFA off only with the password and a current code, audited; sign-in then answers a token at once', async () => {
    const { user, app } = await userWithMfa('admin');
    const wrongCode = await user.request('POST', '/v1/dashboard/me/mfa/disable', { body: { password: TEST_PASSWORD, code: '000000' } });
    // '000000' could be the current code once in a million runs; the next assertion would then say so.
    expect(wrongCode.status, wrongCode.text).toBe(400);
    expect(wrongCode.body).toMatchObject({ code: 'incorrect_mfa_code', field: 'code' });
    const wrongPassword = await user.request('POST', '/v1/dashboard/me/mfa/disable', { body: { password: 'Not-The-Password-1', code: '123456' } });
    expect(wrongPassword.body).toMatchObject({ code: 'incorrect_password', field: 'password' });
    expect((await user.request('GET', '/v1/dashboard/me/mfa')).body).toEqual({ enabled: true });
    // The code that confirmed the enrolment is used: said so, and MFA stays on.
    const used = await user.request('POST', '/v1/dashboard/me/mfa/disable', { body: { password: TEST_PASSWORD, code: app.lastCode() } });
    expect(used.status, used.text).toBe(400);
    expect(used.body).toMatchObject({ code: 'mfa_code_already_used', field: 'code' });
    expect((await user.request('GET', '/v1/dashboard/me/mfa')).body).toEqual({ enabled: true });

    const off = await user.request('POST', '/v1/dashboard/me/mfa/disable', { body: { password: TEST_PASSWORD, code: await app.nextCode() } });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual({ enabled: false });
    expect((await user.request('GET', '/v1/dashboard/me/mfa')).body).toEqual({ enabled: false });
    const signedIn = await signIn(user.email);
    expect(signedIn.body.token).toEqual(expect.any(String));

    const audit = await user.request('GET', '/v1/dashboard/audit-log');
    expect(audit.body.data.map((entry: { action: string }) => entry.action)).toEqual(expect.arrayContaining(['user.mfa_enabled', 'user.mfa_disabled']));
    const again = await user.request('POST', '/v1/dashboard/me/mfa/disable', { body: { password: TEST_PASSWORD, code: await app.nextCode() } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('mfa_not_enabled');
  });

  it('keeps MFA on when the password changes', async () => {
    const { user } = await userWithMfa();
    await sandbox.userDirectory.setPassword(user.userId, 'Another-Good-Pass-7');
    expect((await signIn(user.email, 'Another-Good-Pass-7')).body.challenge).toBe('mfa');
  });

  it('asks a user with MFA on for a code after a temporary password is replaced, as Cognito does: no token without it', async () => {
    const { user, app } = await userWithMfa('admin');
    await sandbox.userDirectory.setPassword(user.userId, 'Temporary-Pass-77', { temporary: true });
    const first = await signIn(user.email, 'Temporary-Pass-77');
    expect(first.body.challenge).toBe('new_password');
    const replaced = await sandbox.request('POST', '/v1/dashboard/auth/new-password', { body: { challengeSession: first.body.challengeSession, newPassword: 'Chosen-Again-Pass-8' } });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body).toEqual({ challenge: 'mfa', challengeSession: expect.any(String) });
    const signedIn = await answerMfa(replaced.body.challengeSession, await app.nextCode());
    expect(signedIn.body.token).toEqual(expect.any(String));
    const me = await sandbox.request('GET', '/v1/dashboard/me', { headers: { authorization: `Bearer ${signedIn.body.token}` } });
    expect(me.body.mfaRequired).toBe(false);
  });

  it('locks the email after repeated wrong codes, as after wrong passwords: then even the right code gets no token', async () => {
    const { user, app } = await userWithMfa();
    const challenge = await signIn(user.email);
    const code = await app.nextCode();
    const wrong = code === '999999' ? '888888' : '999999';
    for (let i = 0; i < MAX_FAILURES; i++) expect((await answerMfa(challenge.body.challengeSession, wrong)).status).toBe(401);
    const locked = await answerMfa(challenge.body.challengeSession, code);
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('too_many_sign_in_attempts');
    expect((await user.request('POST', '/v1/dashboard/me/mfa/disable', { body: { password: TEST_PASSWORD, code: await app.nextCode() } })).status).toBe(429);
  });
  it('checks at most MAX_FAILURES of 30 parallel wrong codes or passwords (sign-in challenge, enrolment, disable): the rest are 429', async () => {
    const { user, app } = await userWithMfa();
    const challenge = await signIn(user.email);
    const code = await app.nextCode();
    const wrong = code === '999999' ? '888888' : '999999';
    const codes = await Promise.all(Array.from({ length: 30 }, () => answerMfa(challenge.body.challengeSession, wrong)));
    expect(codes.filter((res) => res.status === 401).length).toBeLessThanOrEqual(MAX_FAILURES);
    expect(codes.filter((res) => res.status !== 401 && res.status !== 429)).toEqual([]);
    const right = await answerMfa(challenge.body.challengeSession, code);
    expect(right.status).toBe(429);
    expect(right.body.token).toBeUndefined();

    const other = await signedInUser(sandbox, merchantId, 'read_only');
    const passwords = await Promise.all(
      Array.from({ length: 30 }, (_, i) => other.request('POST', '/v1/dashboard/me/mfa/enrolment', { body: { password: `Not-The-Password-${i}` } })),
    );
    expect(passwords.filter((res) => res.status === 400).length).toBeLessThanOrEqual(MAX_FAILURES);
    expect(passwords.filter((res) => res.status !== 400 && res.status !== 429)).toEqual([]);
    expect((await other.request('POST', '/v1/dashboard/me/mfa/enrolment', { body: { password: TEST_PASSWORD } })).status).toBe(429);

    const { user: third } = await userWithMfa();
    const disables = await Promise.all(Array.from({ length: 30 }, () => third.request('POST', '/v1/dashboard/me/mfa/disable', { body: { password: TEST_PASSWORD, code: wrong } })));
    expect(disables.filter((res) => res.status === 400).length).toBeLessThanOrEqual(MAX_FAILURES);
    expect(disables.filter((res) => res.status !== 400 && res.status !== 429)).toEqual([]);
  });
});
