/**
 * The user-token verifier of a Lambda function, from the environment the stack gives every function whose route
 * accepts a user token (USER_POOL_ID, USER_POOL_CLIENT_ID). A part (shared/deps.ts): only the handlers of routes with
 * a `dashboard` role wire it, so only their bundles hold aws-jwt-verify.
 */
import type { PartsFactory } from '../deps.ts';
import { cognitoTokenVerifier, type CognitoPool } from './cognito-token-verifier.ts';
import type { UserTokenVerifier } from './user-directory.ts';

export function poolFromEnvironment(env: NodeJS.ProcessEnv): CognitoPool | null {
  const userPoolId = env.USER_POOL_ID;
  const clientId = env.USER_POOL_CLIENT_ID;
  return userPoolId && clientId ? { userPoolId, clientId } : null;
}

/** Refuses every user token: a function without a user pool (its routes then take API keys only). */
const noUserTokens: UserTokenVerifier = { verify: async () => null };

/**
 * The pool's token verifier, or one that refuses every token when the function has no pool.
 *
 * @example
 * export const { build, handler, schemas } = defineApiHandler(routeEntries.getDashboardMe, schemas, impl, { userTokens: userTokensFromEnvironment });
 */
export const userTokensFromEnvironment: PartsFactory<'userTokens'> = (env) => {
  const pool = poolFromEnvironment(env);
  return { userTokens: pool ? cognitoTokenVerifier(pool) : noUserTokens };
};
