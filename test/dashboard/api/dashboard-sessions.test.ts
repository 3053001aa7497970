/**
 * Issue 21, finding 9: a dashboard session ends on the server: sign-out revokes the token at once, 15 minutes without
 * a call expire it, and an admin is limited to enrolling an authenticator app until their sign-in went through one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDLE_TIMEOUT_MS } from '../../../shared/dashboard/dashboard-sessions.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { testAuthenticator } from '../../support/totp-codes.ts';
import { signedInUser, TEST_PASSWORD } from './dashboard-users.ts';

describe('dashboard sessions: sign-out, idle timeout, MFA for admins', { timeout: 120_000 }, () => {
  let sandbox: TestSandbox;
  let merchantId: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    merchantId = (await sandbox.newMerchant()).merchant.id;
  });
  afterAll(() => sandbox.stop());

  it('refuses a token after its sign-out, while another sign-in of the same user goes on', async () => {
    const user = await signedInUser(sandbox, merchantId, 'developer');
    const other = await sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email: user.email, password: TEST_PASSWORD } });
    expect((await user.request('GET', '/v1/dashboard/me')).status).toBe(200);
    const out = await user.request('POST', '/v1/dashboard/auth/sign-out');
    expect(out.status, out.text).toBe(200);
    expect(out.body).toEqual({ signedOut: true });
    const after = await user.request('GET', '/v1/dashboard/me');
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('invalid_token');
    expect((await user.request('GET', '/v1/dashboard/keys')).status).toBe(401);
    expect((await user.request('POST', '/v1/dashboard/auth/sign-out')).status).toBe(401);
    expect((await sandbox.request('GET', '/v1/dashboard/me', { headers: { authorization: `Bearer ${other.body.token}` } })).status).toBe(200);
  });

  it('expires a session after IDLE_TIMEOUT_MS without a call, well before its token expires; each call starts the idle time again', async () => {
    expect(IDLE_TIMEOUT_MS).toBe(15 * 60_000);
    const busy = await signedInUser(sandbox, merchantId, 'read_only');
    const idle = await signedInUser(sandbox, merchantId, 'read_only');
    sandbox.advance(12 * 60);
    expect((await busy.request('GET', '/v1/dashboard/me')).status).toBe(200);
    sandbox.advance(4 * 60);
    // 16 minutes after sign-in: the token has 44 minutes left, the idle session none.
    const expired = await idle.request('GET', '/v1/dashboard/me');
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('invalid_token');
    expect((await busy.request('GET', '/v1/dashboard/me')).status).toBe(200);
    sandbox.advance(12 * 60);
    expect((await busy.request('GET', '/v1/dashboard/me')).status).toBe(200);
  });

  it('refuses a valid token that no sign-in of the API handed out (no session)', async () => {
    const user = await signedInUser(sandbox, merchantId, 'read_only');
    // Straight from the directory, as a token stolen from the issuer would be: signed, unexpired, never a session.
    const direct = await sandbox.userDirectory.signIn(user.email, TEST_PASSWORD);
    if (direct.kind !== 'token') throw new Error(`expected a token, got ${direct.kind}`);
    expect((await sandbox.request('GET', '/v1/dashboard/me', { headers: { authorization: `Bearer ${direct.token}` } })).status).toBe(401);
  });

  it('limits an admin without MFA to enrolling it (403 mfa_required elsewhere); enrolled, the same session does everything', async () => {
    const admin = await signedInUser(sandbox, merchantId, 'admin', { mfa: false });
    const me = await admin.request('GET', '/v1/dashboard/me');
    expect(me.status).toBe(200);
    expect(me.body.mfaRequired).toBe(true);
    for (const [method, path] of [['GET', '/v1/dashboard/users'], ['GET', '/v1/dashboard/keys'], ['GET', '/v1/dashboard/payments'], ['GET', '/v1/dashboard/audit-log']] as const) {
      const refused = await admin.request(method, path);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.code).toBe('mfa_required');
    }
    expect((await admin.request('GET', '/v1/dashboard/me/mfa')).body).toEqual({ enabled: false });
    const started = await admin.request('POST', '/v1/dashboard/me/mfa/enrolment', { body: { password: TEST_PASSWORD } });
    expect(started.status, started.text).toBe(200);
    const app = testAuthenticator(started.body.secret, sandbox.authenticatorClock);
    const confirmed = await admin.request('POST', '/v1/dashboard/me/mfa/enrolment/confirm', { body: { enrolmentSession: started.body.enrolmentSession, code: await app.nextCode() } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((await admin.request('GET', '/v1/dashboard/users')).status).toBe(200);
    expect((await admin.request('GET', '/v1/dashboard/me')).body.mfaRequired).toBe(false);

    // A later sign-in goes through the code and gets everything at once.
    const again = await sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email: admin.email, password: TEST_PASSWORD } });
    const signedIn = await sandbox.request('POST', '/v1/dashboard/auth/mfa', { body: { challengeSession: again.body.challengeSession, code: await app.nextCode() } });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect((await sandbox.request('GET', '/v1/dashboard/users', { headers: { authorization: `Bearer ${signedIn.body.token}` } })).status).toBe(200);
  });

  it('leaves MFA optional for developers and read-only users', async () => {
    const developer = await signedInUser(sandbox, merchantId, 'developer');
    expect((await developer.request('GET', '/v1/dashboard/keys')).status).toBe(200);
    expect((await developer.request('GET', '/v1/dashboard/me')).body.mfaRequired).toBe(false);
  });
});
