import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccountRecovery, FeaturePlan, Mfa, StandardThreatProtectionMode, UserPool, UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { PASSWORD_MIN_LENGTH } from '../../shared/dashboard/password-policy.ts';
import { USER_POOL_ACTIONS } from '../../shared/dashboard/user-pool-actions.ts';
import type { RouteId } from '../../shared/routes.ts';
import type { StageConfig } from '../stage-config.ts';
import type { ServiceFunction } from './service-function.ts';

export interface DashboardUserPoolProps {
  config: StageConfig;
}

/**
 * The dashboard's users (issue 15): email sign-in, the password policy of shared/dashboard/password-policy.ts, TOTP
 * MFA available (required for admins by the API, issue 21), no self sign-up (admins invite; the platform team's CLI makes a merchant's first admin), threat
 * protection on. One app client, used by the API only (ADMIN_USER_PASSWORD_AUTH from the sign-in function): the
 * browser never talks to Cognito, and the API verifies the ID tokens it hands out (aws-jwt-verify).
 */
export class DashboardUserPool extends Construct {
  readonly pool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string, { config }: DashboardUserPoolProps) {
    super(scope, id);
    this.pool = new UserPool(this, 'Pool', {
      // The user name is our user id (usr_...); people sign in with their email, an alias.
      signInAliases: { username: true, email: true },
      signInCaseSensitive: false,
      selfSignUpEnabled: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: PASSWORD_MIN_LENGTH,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(7),
      },
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.PLUS,
      standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
      userInvitation: {
        emailSubject: 'Your svc dashboard account',
        emailBody: 'You were invited to the svc dashboard. Sign in with this email address and the temporary password {####} (user {username}); you will choose your own password then.',
      },
      deletionProtection: config.production,
      removalPolicy: config.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.client = this.pool.addClient('Api', {
      authFlows: { adminUserPassword: true },
      generateSecret: false,
      preventUserExistenceErrors: true,
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.hours(12),
      enableTokenRevocation: true,
    });
    NagSuppressions.addResourceSuppressions(this.pool, [
      {
        id: 'AwsSolutions-COG2',
        reason: "MFA (TOTP) is optional in the pool so a user without an authenticator app can still sign in and enrol one; the API requires it for admins (an admin's session without it reaches only enrolment: shared/dashboard/dashboard-sessions.ts). Threat protection (PLUS) adds adaptive authentication.",
      },
    ]);
  }

  /** Every function whose route accepts a user token verifies it against this pool's app client. */
  verifiesTokens(target: ServiceFunction): void {
    target.function.addEnvironment('USER_POOL_ID', this.pool.userPoolId);
    target.function.addEnvironment('USER_POOL_CLIENT_ID', this.client.userPoolClientId);
  }

  /** A function that signs users in or manages logins: exactly the Cognito actions its route calls. */
  grantRouteActions(target: ServiceFunction, routeId: RouteId): void {
    const actions = USER_POOL_ACTIONS[routeId];
    if (!actions) throw new Error(`Route ${routeId} needs the user pool but shared/dashboard/user-pool-actions.ts lists no actions for it`);
    this.verifiesTokens(target);
    this.pool.grant(target.role, ...actions);
  }
}
