/**
 * The user directory of a Lambda function, from the environment the stack gives it (USER_POOL_ID,
 * USER_POOL_CLIENT_ID): for the functions whose manifest entry needs 'userPool'.
 */
import type { PartsFactory } from '../deps.ts';
import { createCognitoUserDirectory } from './cognito-user-directory.ts';
import { poolFromEnvironment } from './user-tokens-from-environment.ts';

export const userDirectoryFromEnvironment: PartsFactory<'userDirectory'> = (env) => {
  const pool = poolFromEnvironment(env);
  if (!pool) throw new Error('USER_POOL_ID and USER_POOL_CLIENT_ID must be set for a function that needs the user pool');
  return { userDirectory: createCognitoUserDirectory(pool) };
};
