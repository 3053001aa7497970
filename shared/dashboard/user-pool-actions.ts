/**
 * The Cognito actions each route that needs the user pool ('userPool' in shared/routes.ts) calls: the stack grants
 * exactly these on the pool (infra/constructs/user-pool.ts). test/dashboard/infra checks every such route has its list.
 */
import type { RouteId } from '../routes.ts';

export const USER_POOL_ACTIONS: Partial<Record<RouteId, readonly string[]>> = {
  dashboardSignIn: ['cognito-idp:AdminInitiateAuth'],
  dashboardMfa: ['cognito-idp:AdminRespondToAuthChallenge'],
  dashboardNewPassword: ['cognito-idp:AdminRespondToAuthChallenge'],
  dashboardSignOut: ['cognito-idp:AdminUserGlobalSignOut'],
  createDashboardUser: ['cognito-idp:AdminCreateUser'],
  deleteDashboardUser: ['cognito-idp:AdminDeleteUser'],
  // AssociateSoftwareToken and VerifySoftwareToken are authorised by the user's access token, not IAM: not listed.
  getDashboardMfa: ['cognito-idp:AdminGetUser'],
  startDashboardMfaEnrolment: ['cognito-idp:AdminInitiateAuth'],
  confirmDashboardMfaEnrolment: ['cognito-idp:AdminSetUserMFAPreference'],
  disableDashboardMfa: ['cognito-idp:AdminInitiateAuth', 'cognito-idp:AdminRespondToAuthChallenge', 'cognito-idp:AdminSetUserMFAPreference'],
};
