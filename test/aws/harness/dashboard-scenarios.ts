import {
  AdminInitiateAuthCommand,
  AdminSetUserMFAPreferenceCommand,
  AdminSetUserPasswordCommand,
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { createCognitoUserDirectory } from '../../../shared/dashboard/cognito-user-directory.ts';
import type { Role } from '../../../shared/domain/roles.ts';
import { inviteUser } from '../../../shared/dashboard/user-admin.ts';
import { createUserStore } from '../../../shared/store/user-store.ts';
import type { ApiResponse } from './api-gateway.ts';
import type { DeployedStack } from './deployed-stack.ts';
import { withAdminStores } from './admin-stores.ts';
import { LOGO_PNG } from './payment-scenarios.ts';
import { failedStep, once, type Scenario, type ScenarioState } from './scenario-state.ts';
import { nowWithStepLeft } from '../../support/totp-codes.ts';

/** Meets the pool's password policy (12 characters, upper, lower, digit, symbol). */
const PASSWORD = 'Harness-Passw0rd!';
const NEW_PASSWORD = 'Harness-Chosen-Passw0rd!';

interface Login {
  userId: string;
  email: string;
}

/**
 * A dashboard user of the scenario merchant, made as the admin CLI's `users create --aws` makes one (the user item,
 * then Cognito's AdminCreateUser, here in moto), with a password set by the harness as an administrator would:
 * `permanent` false leaves it temporary, so the first sign-in asks for a new one.
 */
async function newLogin(stack: DeployedStack, state: ScenarioState, role: Role, { permanent }: { permanent: boolean }): Promise<Login> {
  const cognito = stack.cloud.client(CognitoIdentityProviderClient);
  const pool = { userPoolId: stack.userPool.poolId, clientId: stack.userPool.clientId };
  try {
    const { user } = await withAdminStores(stack, (stores) =>
      inviteUser(
        { users: createUserStore(stores.db, stack.cloud.tableName), userDirectory: createCognitoUserDirectory(pool, cognito) },
        { merchantId: state.merchantId, email: `aws-${randomBytes(4).toString('hex')}@merchant.example`, role, now: Date.now() },
      ),
    );
    await cognito.send(new AdminSetUserPasswordCommand({ UserPoolId: pool.userPoolId, Username: user.id, Password: PASSWORD, Permanent: permanent }));
    return { userId: user.id, email: user.email };
  } finally {
    cognito.destroy();
  }
}

const signIn = (stack: DeployedStack, login: Login, password = PASSWORD) => stack.api.request('POST', '/v1/dashboard/auth/sign-in', { body: { email: login.email, password } });

/**
 * The merchant's admin, signed in through the sign-in route (Cognito's AdminInitiateAuth in moto): its answer has the
 * token. Admins reach nothing else until they add an authenticator app, so the session enrols one through the routes.
 */
const admin = (stack: DeployedStack, state: ScenarioState) =>
  once(state, 'dashboard admin', async () => {
    const signedIn = await signIn(stack, await newLogin(stack, state, 'admin', { permanent: true }));
    if (typeof signedIn.body?.token !== 'string') return signedIn;
    const started = await stack.api.request('POST', '/v1/dashboard/me/mfa/enrolment', { key: signedIn.body.token, body: { password: PASSWORD } });
    if (started.status >= 300) return failedStep(started, 'admin MFA enrolment');
    const code = totpCode(String(started.body.secret), await nowWithStepLeft());
    const confirmed = await stack.api.request('POST', '/v1/dashboard/me/mfa/enrolment/confirm', { key: signedIn.body.token, body: { enrolmentSession: started.body.enrolmentSession, code } });
    return confirmed.status >= 300 ? failedStep(confirmed, 'admin MFA confirmation') : signedIn;
  });

/** A call as the signed-in admin, on the test data the API flows made (Svc-Mode: test); a failed sign-in is the answer. */
async function asAdmin(stack: DeployedStack, state: ScenarioState, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  const signedIn = await admin(stack, state);
  if (typeof signedIn.body?.token !== 'string') return failedStep(signedIn, 'admin sign-in');
  return stack.api.request(method, path, { key: signedIn.body.token, body, headers: { 'Svc-Mode': 'test' } });
}

/** A key of the merchant no other scenario uses (the live restricted and publishable ones): rolling or revoking it harms nothing. */
async function spareKey(stack: DeployedStack, state: ScenarioState, kind: 'restricted' | 'publishable'): Promise<string> {
  const keys = await asAdmin(stack, state, 'GET', '/v1/dashboard/keys');
  return (keys.body?.data as { id: string; kind: string; mode: string; status: string }[] | undefined)?.find((k) => k.kind === kind && k.mode === 'live' && k.status === 'active')?.id ?? 'no_key';
}

/** A user the admin invited through the route: changed, then removed last. */
const invited = (stack: DeployedStack, state: ScenarioState) =>
  once(state, 'invited user', () => asAdmin(stack, state, 'POST', '/v1/dashboard/users', { email: `aws-invited-${randomBytes(4).toString('hex')}@merchant.example`, role: 'developer' }));

/** The code an authenticator app holding `secret` (base32, as Cognito's AssociateSoftwareToken gives it) shows at `atMs`. */
export const totpCode = (secret: string, atMs = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret.toUpperCase().replace(/=+$/, '')), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: atMs });

/**
 * A user with TOTP MFA on, enrolled the way Cognito enrols one (AssociateSoftwareToken with the user's access token,
 * VerifySoftwareToken with the app's code, AdminSetUserMFAPreference), straight in moto: moto checks the codes.
 */
async function mfaLogin(stack: DeployedStack, state: ScenarioState): Promise<Login & { secret: string }> {
  const login = await newLogin(stack, state, 'read_only', { permanent: true });
  const cognito = stack.cloud.client(CognitoIdentityProviderClient);
  const pool = stack.userPool;
  try {
    const auth = await cognito.send(
      new AdminInitiateAuthCommand({ UserPoolId: pool.poolId, ClientId: pool.clientId, AuthFlow: 'ADMIN_USER_PASSWORD_AUTH', AuthParameters: { USERNAME: login.userId, PASSWORD } }),
    );
    const accessToken = auth.AuthenticationResult!.AccessToken!;
    const { SecretCode } = await cognito.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
    await cognito.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: totpCode(SecretCode!, await nowWithStepLeft()) }));
    await cognito.send(new AdminSetUserMFAPreferenceCommand({ UserPoolId: pool.poolId, Username: login.userId, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }));
    return { ...login, secret: SecretCode! };
  } finally {
    cognito.destroy();
  }
}

/** A token answer (sign-in finished), or the answer made a failure that says what came instead. */
const expectToken = (answer: ApiResponse, step: string): ApiResponse =>
  answer.status < 300 && typeof answer.body?.token !== 'string' ? failedStep(answer, `${step}: no token`) : answer;

/** Success scenarios of the dashboard's routes: signed in through Cognito (moto) and the functions' own token checks. */
export const dashboardScenarios: Record<string, Scenario> = {
  'POST /v1/dashboard/auth/sign-in': async (s, st) => expectToken(await admin(s, st), 'sign-in'),
  'POST /v1/dashboard/auth/sign-out': async (s, st) => {
    const signedIn = await signIn(s, await newLogin(s, st, 'read_only', { permanent: true }));
    if (typeof signedIn.body?.token !== 'string') return failedStep(signedIn, 'sign-in before sign-out');
    return s.api.request('POST', '/v1/dashboard/auth/sign-out', { key: signedIn.body.token });
  },
  'POST /v1/dashboard/auth/new-password': async (s, st) => {
    const first = await signIn(s, await newLogin(s, st, 'developer', { permanent: false }));
    if (first.body?.challenge !== 'new_password') return failedStep(first, 'expected the new_password challenge');
    return expectToken(await s.api.request('POST', '/v1/dashboard/auth/new-password', { body: { challengeSession: first.body.challengeSession, newPassword: NEW_PASSWORD } }), 'new password');
  },
  'POST /v1/dashboard/auth/mfa': async (s, st) => {
    const login = await mfaLogin(s, st);
    const first = await signIn(s, login);
    if (first.body?.challenge !== 'mfa') return failedStep(first, 'expected the mfa challenge');
    return expectToken(await s.api.request('POST', '/v1/dashboard/auth/mfa', { body: { challengeSession: first.body.challengeSession, code: await nextCode(login.secret) } }), 'mfa');
  },
  'GET /v1/dashboard/me': (s, st) => asAdmin(s, st, 'GET', '/v1/dashboard/me'),
  'GET /v1/dashboard/overview': (s, st) => asAdmin(s, st, 'GET', '/v1/dashboard/overview?tz=America/Caracas'),
  'GET /v1/dashboard/payments': (s, st) => asAdmin(s, st, 'GET', '/v1/dashboard/payments'),
  'GET /v1/dashboard/payments/{reference}': (s, st) => asAdmin(s, st, 'GET', `/v1/dashboard/payments/${st.paidSession}`),
  'GET /v1/dashboard/keys': (s, st) => asAdmin(s, st, 'GET', '/v1/dashboard/keys'),
  'POST /v1/dashboard/keys/{id}/roll': async (s, st) => asAdmin(s, st, 'POST', `/v1/dashboard/keys/${await spareKey(s, st, 'restricted')}/roll`),
  'POST /v1/dashboard/keys/{id}/revoke': async (s, st) => asAdmin(s, st, 'POST', `/v1/dashboard/keys/${await spareKey(s, st, 'publishable')}/revoke`),
  'GET /v1/dashboard/users': (s, st) => asAdmin(s, st, 'GET', '/v1/dashboard/users'),
  'POST /v1/dashboard/users': (s, st) => invited(s, st),
  'PATCH /v1/dashboard/users/{id}': async (s, st) => asAdmin(s, st, 'PATCH', `/v1/dashboard/users/${(await invited(s, st)).body?.user?.id}`, { role: 'read_only' }),
  'GET /v1/dashboard/settings': (s, st) => asAdmin(s, st, 'GET', '/v1/dashboard/settings'),
  'PATCH /v1/dashboard/settings': (s, st) => asAdmin(s, st, 'PATCH', '/v1/dashboard/settings', { businessName: 'Tienda Harness', logo: { contentType: 'image/png', dataBase64: LOGO_PNG.toString('base64') } }),
  'PUT /v1/dashboard/bank-credentials/{gateway}': (s, st) => asAdmin(s, st, 'PUT', '/v1/dashboard/bank-credentials/bank_direct', { apiKey: 'direct-key', merchantCode: 'M-1' }),
  'POST /v1/dashboard/test-mode-requests': (s, st) => asAdmin(s, st, 'POST', '/v1/dashboard/test-mode-requests', { gateway: 'bank_direct', enabled: false }),
  'GET /v1/dashboard/audit-log': (s, st) => asAdmin(s, st, 'GET', '/v1/dashboard/audit-log'),
  'POST /v1/dashboard/webhook-endpoints/{id}/rotate-secret': async (s, st) => {
    // Its own endpoint: the flow's endpoint keeps the secret the receiver's signature check uses.
    const endpoint = await s.api.request('POST', '/v1/webhooks/endpoints', { key: st.keys.secretTest, body: { url: `${st.receiverUrl}/rotated`, enabledEvents: ['session.expired'] } });
    return endpoint.status >= 300 ? endpoint : asAdmin(s, st, 'POST', `/v1/dashboard/webhook-endpoints/${endpoint.body.id}/rotate-secret`, {});
  },
  'DELETE /v1/dashboard/users/{id}': async (s, st) => asAdmin(s, st, 'DELETE', `/v1/dashboard/users/${(await invited(s, st)).body?.user?.id}`),
  'GET /v1/dashboard/me/mfa': (s, st) => asAdmin(s, st, 'GET', '/v1/dashboard/me/mfa'),
  'POST /v1/dashboard/me/mfa/enrolment': async (s, st) => (await enrolment(s, st)).started,
  'POST /v1/dashboard/me/mfa/enrolment/confirm': async (s, st) => (await enrolled(s, st)).confirmed,
  'POST /v1/dashboard/me/mfa/disable': async (s, st) => {
    const { token, secret, confirmed } = await enrolled(s, st);
    if (confirmed.status >= 300) return confirmed;
    return s.api.request('POST', '/v1/dashboard/me/mfa/disable', { key: token, body: { password: PASSWORD, code: await nextCode(secret) } });
  },
};

/** A read-only user who signed in and started adding an authenticator app through the enrolment route (once). */
const enrolment = (stack: DeployedStack, state: ScenarioState) =>
  once(state, 'mfa enrolment', async () => {
    const signedIn = await signIn(stack, await newLogin(stack, state, 'read_only', { permanent: true }));
    const token = String(signedIn.body?.token);
    const started = signedIn.status >= 300 ? signedIn : await stack.api.request('POST', '/v1/dashboard/me/mfa/enrolment', { key: token, body: { password: PASSWORD } });
    return { token, started };
  });

/** That enrolment confirmed with the app's code (once). */
const enrolled = (stack: DeployedStack, state: ScenarioState) =>
  once(state, 'mfa enrolled', async () => {
    const { token, started } = await enrolment(stack, state);
    const secret = String(started.body?.secret);
    if (started.status >= 300) return { token, secret, confirmed: started };
    const confirmed = await stack.api.request('POST', '/v1/dashboard/me/mfa/enrolment/confirm', { key: token, body: { enrolmentSession: started.body.enrolmentSession, code: totpCode(secret, await nowWithStepLeft()) } });
    return { token, secret, confirmed };
  });

/** A code of the next 30 s step: Cognito takes each code once, so a second use waits for a fresh one. */
async function nextCode(secret: string): Promise<string> {
  const used = totpCode(secret);
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    const code = totpCode(secret);
    if (code !== used) return code;
  }
}

/** After the user's change (PATCH) has run. */
export const LATE_DASHBOARD_SCENARIOS = ['DELETE /v1/dashboard/users/{id}'];
