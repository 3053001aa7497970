/**
 * How the Cognito directory reads Cognito's refusals of a TOTP code. Cognito answers a right code used a second time
 * within its step with ExpiredCodeException ("Your software token has already been used once."), a wrong one with
 * CodeMismatchException. moto takes a code again (docs/aws-harness.md), so these answers come from a stand-in client.
 */
import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import { createCognitoUserDirectory } from '../../shared/dashboard/cognito-user-directory.ts';
import { IncorrectMfaCodeError, MfaCodeUsedError } from '../../shared/dashboard/mfa-errors.ts';

const cognitoError = (name: string, message: string) => Object.assign(new Error(message), { name });
const USED = cognitoError('ExpiredCodeException', 'Your software token has already been used once.');
const MISMATCH = cognitoError('CodeMismatchException', 'Invalid code received for user');

/** A directory whose client answers the calls in order: a value is returned, an error thrown. */
function directoryAnswering(...answers: unknown[]) {
  const calls: string[] = [];
  const client = {
    send: async (command: object) => {
      calls.push(command.constructor.name);
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as CognitoIdentityProviderClient;
  return { directory: createCognitoUserDirectory({ userPoolId: 'us-east-1_pool', clientId: 'client' }, client), calls };
}

const mfaSession = Buffer.from(JSON.stringify({ challenge: 'SOFTWARE_TOKEN_MFA', username: 'usr_1', session: 'cognito-session' })).toString('base64url');
const challenged = { ChallengeName: 'SOFTWARE_TOKEN_MFA', Session: 'cognito-session', ChallengeParameters: { USER_ID_FOR_SRP: 'usr_1' } };
const user = { id: 'usr_1', email: 'ana@example.com' };

describe("the Cognito directory's reading of a refused TOTP code", () => {
  it('answers a used code at the sign-in challenge as refused because used, a wrong one as refused only', async () => {
    const used = directoryAnswering(USED);
    expect(await used.directory.respond(mfaSession, 'mfa', '123456')).toEqual({ kind: 'refused', reason: 'code_used' });
    expect(used.calls).toEqual(['AdminRespondToAuthChallengeCommand']);
    expect(await directoryAnswering(MISMATCH).directory.respond(mfaSession, 'mfa', '123456')).toEqual({ kind: 'refused' });
  });

  it('refuses to turn MFA off with a used code as used, with a wrong one as incorrect', async () => {
    const used = directoryAnswering(challenged, USED);
    await expect(used.directory.disableMfa(user, 'Correct-Horse-42!', '123456')).rejects.toBeInstanceOf(MfaCodeUsedError);
    expect(used.calls).toEqual(['AdminInitiateAuthCommand', 'AdminRespondToAuthChallengeCommand']);
    await expect(directoryAnswering(challenged, MISMATCH).directory.disableMfa(user, 'Correct-Horse-42!', '123456')).rejects.toBeInstanceOf(IncorrectMfaCodeError);
  });
});
