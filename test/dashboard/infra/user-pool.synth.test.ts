import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { ServiceFunction } from '../../../infra/constructs/service-function.ts';
import { DashboardUserPool } from '../../../infra/constructs/user-pool.ts';
import { readStageConfig } from '../../../infra/stage-config.ts';
import { USER_POOL_ACTIONS } from '../../../shared/dashboard/user-pool-actions.ts';
import { routes, type RouteDefinition } from '../../../shared/routes.ts';
import { stageContext } from '../../infra/stage-context.ts';

/** The pool in a stack of its own with the sign-in route's function, checked by cdk-nag. */
function synthesize() {
  const app = new App({ context: stageContext({ stage: 'dev' }) });
  const stack = new Stack(app, 'UserPoolTest');
  Aspects.of(stack).add(new AwsSolutionsChecks());
  const config = readStageConfig(app.node);
  const userPool = new DashboardUserPool(stack, 'DashboardUsers', { config });
  const signIn = new ServiceFunction(stack, 'dashboardSignIn', { config, entry: routes.dashboardSignIn.entry, description: 'sign-in', environment: {}, needs: ['userPool'] });
  userPool.grantRouteActions(signIn, 'dashboardSignIn');
  return { template: Template.fromStack(stack), stack };
}

describe('DashboardUserPool', () => {
  const { template, stack } = synthesize();

  it('signs in by email with the password policy the sandbox applies, optional TOTP MFA, no self sign-up, threat protection', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      AliasAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      AdminCreateUserConfig: Match.objectLike({ AllowAdminCreateUserOnly: true }),
      Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true }) },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
    });
  });

  it('has one app client for the API: admin password flow only, no secret, no user-existence errors, 1 h tokens', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ExplicitAuthFlows: ['ALLOW_ADMIN_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      GenerateSecret: false,
      PreventUserExistenceErrors: 'ENABLED',
      IdTokenValidity: 60,
    });
  });

  it('grants the sign-in function AdminInitiateAuth on the pool and nothing else of Cognito', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    const cognito = policies.flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((s) => [s.Action].flat()).filter((a) => a.startsWith('cognito-idp:'));
    expect(cognito).toEqual(['cognito-idp:AdminInitiateAuth']);
    const fn = Object.values(template.findResources('AWS::Lambda::Function'))[0]!;
    expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(expect.arrayContaining(['USER_POOL_ID', 'USER_POOL_CLIENT_ID']));
  });

  it('lists the Cognito actions of every route that needs the user pool', () => {
    const needing = (Object.entries(routes) as [keyof typeof routes, RouteDefinition][]).filter(([, r]) => r.needs?.includes('userPool')).map(([id]) => id);
    expect(needing.sort()).toEqual(Object.keys(USER_POOL_ACTIONS).sort());
  });

  it('passes cdk-nag (AwsSolutions) with every exception given a reason', () => {
    const errors = Annotations.fromStack(stack).findError('*', Match.stringLikeRegexp('AwsSolutions-.*'));
    expect(errors.map((e) => `${e.id}: ${String(e.entry.data).slice(0, 120)}`)).toEqual([]);
  });
});
