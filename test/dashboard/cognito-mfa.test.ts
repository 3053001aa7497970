/**
 * The Cognito directory's MFA enrolment against moto_server's cognito-idp (moto 5.2.1 implements AssociateSoftwareToken,
 * VerifySoftwareToken, AdminSetUserMFAPreference and the SOFTWARE_TOKEN_MFA challenge, and checks TOTP codes when
 * MOTO_COGNITO_IDP_USER_POOL_ENABLE_TOTP is set). moto does not resolve email aliases, so the test's Cognito user name
 * is the email; and its tokens are not signed by a pool aws-jwt-verify trusts, so a sign-in is read at the challenge.
 */
import {
  AdminCreateUserCommand,
  AdminInitiateAuthCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  GetUserCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCognitoUserDirectory } from '../../shared/dashboard/cognito-user-directory.ts';
import { IncorrectMfaCodeError, IncorrectPasswordError, MfaAlreadyEnabledError, MfaEnrolmentExpiredError, MfaNotEnabledError } from '../../shared/dashboard/mfa-errors.ts';
import { totpCode } from '../../shared/dashboard/totp.ts';
import type { UserDirectory } from '../../shared/dashboard/user-directory.ts';
import { startMoto, type MotoServer } from '../aws/harness/moto.ts';
import { nowWithStepLeft } from '../support/totp-codes.ts';

const PASSWORD = 'Correct-Horse-42!';

describe('Cognito user directory: TOTP enrolment (moto_server cognito-idp)', { timeout: 120_000 }, () => {
  let moto: MotoServer;
  let client: CognitoIdentityProviderClient;
  let directory: UserDirectory;
  let userPoolId: string;
  let clientId: string;
  let users = 0;

  beforeAll(async () => {
    // moto checks TOTP codes (against its one fixed secret) only when told to; startMoto passes the environment on.
    process.env.MOTO_COGNITO_IDP_USER_POOL_ENABLE_TOTP = 'true';
    moto = await startMoto();
    client = new CognitoIdentityProviderClient({ endpoint: moto.endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } });
    const pool = await client.send(new CreateUserPoolCommand({ PoolName: 'dashboard', MfaConfiguration: 'OPTIONAL' }));
    userPoolId = pool.UserPool!.Id!;
    const appClient = await client.send(new CreateUserPoolClientCommand({ UserPoolId: userPoolId, ClientName: 'api', ExplicitAuthFlows: ['ALLOW_ADMIN_USER_PASSWORD_AUTH'] }));
    clientId = appClient.UserPoolClient!.ClientId!;
    directory = createCognitoUserDirectory({ userPoolId, clientId }, client);
  }, 120_000);
  afterAll(async () => {
    client?.destroy();
    await moto?.stop();
  });

  /** A confirmed user with PASSWORD; its Cognito user name is its email (see above). */
  async function newUser(): Promise<{ id: string; email: string }> {
    const email = `mfa-${++users}-${Date.now()}@example.com`;
    await client.send(new AdminCreateUserCommand({ UserPoolId: userPoolId, Username: email, UserAttributes: [{ Name: 'email', Value: email }], MessageAction: 'SUPPRESS' }));
    await client.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: email, Password: PASSWORD, Permanent: true }));
    return { id: email, email };
  }
  const passwordSignIn = (email: string) =>
    client.send(new AdminInitiateAuthCommand({ UserPoolId: userPoolId, ClientId: clientId, AuthFlow: 'ADMIN_USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: PASSWORD } }));

  it('turns TOTP on with the first code of the associated secret: sign-in then answers the mfa challenge', async () => {
    const user = await newUser();
    expect(await directory.mfaEnabled(user.id)).toBe(false);
    await expect(directory.startMfaEnrolment(user, 'Wrong-Password-1')).rejects.toBeInstanceOf(IncorrectPasswordError);

    const enrolment = await directory.startMfaEnrolment(user, PASSWORD);
    // Base32 (moto answers one fixed secret in lower case; Cognito in upper case).
    expect(enrolment.secret).toMatch(/^[A-Za-z2-7]+=*$/);
    // The app that scans the QR code makes codes Cognito takes (the URI carries the key in canonical base32).
    const scanned = new URL(enrolment.otpauthUri).searchParams.get('secret')!;
    const now = await nowWithStepLeft();
    const code = totpCode(scanned, now);
    expect(code).toBe(totpCode(enrolment.secret, now));
    await expect(directory.confirmMfaEnrolment(user, enrolment.enrolmentState, code === '000000' ? '111111' : '000000')).rejects.toBeInstanceOf(IncorrectMfaCodeError);
    expect(await directory.mfaEnabled(user.id)).toBe(false);

    await directory.confirmMfaEnrolment(user, enrolment.enrolmentState, code);
    expect(await directory.mfaEnabled(user.id)).toBe(true);
    const signIn = await directory.signIn(user.email, PASSWORD);
    expect(signIn).toEqual({ kind: 'challenge', challenge: 'mfa', challengeSession: expect.any(String) });
    await expect(directory.startMfaEnrolment(user, PASSWORD)).rejects.toBeInstanceOf(MfaAlreadyEnabledError);
  });

  it('refuses an enrolment whose access token is not valid (expired or revoked) as expired', async () => {
    const user = await newUser();
    await expect(directory.confirmMfaEnrolment(user, 'not-an-access-token', '123456')).rejects.toBeInstanceOf(MfaEnrolmentExpiredError);
  });

  it('turns TOTP off only with the password and a current code; then sign-in answers tokens without a challenge', async () => {
    const user = await newUser();
    await expect(directory.disableMfa(user, PASSWORD, '123456')).rejects.toBeInstanceOf(MfaNotEnabledError);
    const enrolment = await directory.startMfaEnrolment(user, PASSWORD);
    await directory.confirmMfaEnrolment(user, enrolment.enrolmentState, totpCode(enrolment.secret, await nowWithStepLeft()));

    const code = totpCode(enrolment.secret, await nowWithStepLeft());
    await expect(directory.disableMfa(user, 'Wrong-Password-1', code)).rejects.toBeInstanceOf(IncorrectPasswordError);
    await expect(directory.disableMfa(user, PASSWORD, code === '000000' ? '111111' : '000000')).rejects.toBeInstanceOf(IncorrectMfaCodeError);
    expect(await directory.mfaEnabled(user.id)).toBe(true);

    await directory.disableMfa(user, PASSWORD, code);
    expect(await directory.mfaEnabled(user.id)).toBe(false);
    const signedIn = await passwordSignIn(user.email);
    expect(signedIn.ChallengeName).toBeUndefined();
    expect(signedIn.AuthenticationResult?.AccessToken).toEqual(expect.any(String));
  });

  it('answers a wrong code at the sign-in challenge with a refusal', async () => {
    const user = await newUser();
    const enrolment = await directory.startMfaEnrolment(user, PASSWORD);
    await directory.confirmMfaEnrolment(user, enrolment.enrolmentState, totpCode(enrolment.secret, await nowWithStepLeft()));
    const challenge = await directory.signIn(user.email, PASSWORD);
    if (challenge.kind !== 'challenge') throw new Error(`expected the mfa challenge, got ${challenge.kind}`);
    const code = totpCode(enrolment.secret, await nowWithStepLeft());
    expect((await directory.respond(challenge.challengeSession, 'mfa', code === '000000' ? '111111' : '000000')).kind).toBe('refused');
  });
  it("refuses an mfa challenge session answered as another challenge, even with the right code, and answers it once", async () => {
    const user = await newUser();
    const enrolment = await directory.startMfaEnrolment(user, PASSWORD);
    await directory.confirmMfaEnrolment(user, enrolment.enrolmentState, totpCode(enrolment.secret, await nowWithStepLeft()));
    const challenge = await directory.signIn(user.email, PASSWORD);
    if (challenge.kind !== 'challenge') throw new Error(`expected the mfa challenge, got ${challenge.kind}`);
    expect(await directory.challengeUser(challenge.challengeSession, 'new_password')).toBeNull();
    const code = totpCode(enrolment.secret, await nowWithStepLeft());
    expect((await directory.respond(challenge.challengeSession, 'new_password', code)).kind).toBe('refused');
    expect((await passwordSignIn(user.email)).ChallengeName).toBe('SOFTWARE_TOKEN_MFA');
  });
  it('signs a user out of Cognito: their access token is refused afterwards; an unknown user is no error', async () => {
    const user = await newUser();
    const accessToken = (await passwordSignIn(user.email)).AuthenticationResult!.AccessToken!;
    await client.send(new GetUserCommand({ AccessToken: accessToken }));
    await directory.signOut(user.id);
    await expect(client.send(new GetUserCommand({ AccessToken: accessToken }))).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(directory.signOut('usr_NoSuchUser000000000000')).resolves.toBeUndefined();
  });
});
