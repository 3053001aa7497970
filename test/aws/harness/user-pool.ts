import {
  CognitoIdentityProviderClient,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  SetUserPoolMfaConfigCommand,
  type CreateUserPoolClientCommandInput,
  type CreateUserPoolCommandInput,
} from '@aws-sdk/client-cognito-identity-provider';
import type { LocalCloud } from './local-cloud.ts';
import { resolveValue, resourcesOfType } from './template.ts';

/** The dashboard's user pool and its app client, created in moto as the template declares them. */
export interface DeployedUserPool {
  poolLogicalId: string;
  poolId: string;
  poolArn: string;
  clientId: string;
}

/**
 * Creates each AWS::Cognito::UserPool of the template in moto (its properties as CreateUserPool takes them, TOTP MFA
 * as `EnabledMfas` declares) and each AWS::Cognito::UserPoolClient, then makes the template's `Ref`s and `Arn`s of
 * them resolve to moto's ids, as CloudFormation's would after a deploy. Run before any function starts: their
 * USER_POOL_ID and USER_POOL_CLIENT_ID come from those `Ref`s.
 *
 * One correction of the stand-in: a client without `ReadAttributes` may read every attribute in Cognito (its ID
 * tokens carry `email`), while moto puts only listed attributes in the token; the harness lists `email` for moto.
 */
export async function deployUserPools(cloud: LocalCloud): Promise<DeployedUserPool[]> {
  const cognito = cloud.client(CognitoIdentityProviderClient);
  const refs = new Map<string, string>();
  const arns = new Map<string, string>();
  const deployed: DeployedUserPool[] = [];
  try {
    for (const [poolLogicalId, { Properties: p }] of resourcesOfType(cloud.template, 'AWS::Cognito::UserPool')) {
      const { EnabledMfas, UserPoolTags, UserPoolName, ...properties } = resolveValue(p, cloud.ids, cloud.template) as Record<string, any>;
      const input = { ...properties, PoolName: UserPoolName ?? poolLogicalId, UserPoolTags } as CreateUserPoolCommandInput;
      const { UserPool } = await cognito.send(new CreateUserPoolCommand(input));
      const poolId = UserPool!.Id!;
      if ((EnabledMfas as string[] | undefined)?.includes('SOFTWARE_TOKEN_MFA')) {
        await cognito.send(new SetUserPoolMfaConfigCommand({ UserPoolId: poolId, MfaConfiguration: p.MfaConfiguration, SoftwareTokenMfaConfiguration: { Enabled: true } }));
      }
      refs.set(poolLogicalId, poolId);
      arns.set(poolLogicalId, UserPool!.Arn!);
      for (const [clientLogicalId, { Properties: c }] of resourcesOfType(cloud.template, 'AWS::Cognito::UserPoolClient')) {
        if (c.UserPoolId?.Ref !== poolLogicalId) continue;
        const { UserPoolId: _pool, ...clientProperties } = resolveValue(c, cloud.ids, cloud.template) as Record<string, any>;
        const clientInput = { ...clientProperties, UserPoolId: poolId, ClientName: clientProperties.ClientName ?? clientLogicalId, ReadAttributes: clientProperties.ReadAttributes ?? ['email', 'email_verified'] };
        const { UserPoolClient } = await cognito.send(new CreateUserPoolClientCommand(clientInput as CreateUserPoolClientCommandInput));
        refs.set(clientLogicalId, UserPoolClient!.ClientId!);
        deployed.push({ poolLogicalId, poolId, poolArn: UserPool!.Arn!, clientId: UserPoolClient!.ClientId! });
      }
    }
  } finally {
    cognito.destroy();
  }
  // The deployed ids replace the placeholders LocalCloud answers for resources it does not create itself.
  const { ref, getAtt } = cloud.ids;
  cloud.ids.ref = (id) => refs.get(id) ?? ref(id);
  cloud.ids.getAtt = (id, attribute) => (attribute === 'Arn' ? arns.get(id) : undefined) ?? getAtt(id, attribute);
  return deployed;
}
