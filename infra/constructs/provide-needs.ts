import { Stack } from 'aws-cdk-lib';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { GATEWAY_IDS } from '../../shared/domain/merchant.ts';
import { GATEWAY_URL_VARIABLES, gatewayProfile } from '../../shared/gateways/gateway-registry.ts';
import { gatewayUrlParameterName, type StageConfig } from '../stage-config.ts';
import type { ServiceFunction } from './service-function.ts';
import type { ServiceKeys } from './service-keys.ts';
import type { DashboardUserPool } from './user-pool.ts';
import type { RouteId } from '../../shared/routes.ts';

export interface NeedsSources {
  config: StageConfig;
  keys: ServiceKeys;
  /** The dashboard's user pool: 'userPool' grants the Cognito actions of the function's route. */
  userPool: DashboardUserPool;
}

/**
 * Gives a function what its manifest entry declares it needs (shared/function-needs.ts), and nothing to the others:
 * a key grant with the variable naming the key, or the gateways' base URLs (from context, else the stage's SSM
 * parameters, resolved at deploy time so synth needs no AWS access). Context URLs are checked for https at synth
 * (stage-config.ts); an SSM value is known only at deploy, so the function checks every URL when it reads them
 * (readGatewayConfig) and refuses to call a network over anything else.
 *
 * @example
 * for (const c of stack.node.findAll()) if (c instanceof ServiceFunction) provideNeeds(c, { config, keys });
 */
export function provideNeeds(target: ServiceFunction, { config, keys, userPool }: NeedsSources): void {
  for (const need of target.needs) {
    if (need === 'secrets') {
      keys.grantSecrets(target.role);
      target.function.addEnvironment('SECRETS_KMS_KEY_ARN', keys.secrets.keyArn);
    }
    if (need === 'cardNumbers') {
      keys.grantCardNumbers(target.role);
      target.function.addEnvironment('SECRETS_KMS_KEY_ARN', keys.secrets.keyArn);
    }
    if (need === 'fingerprints') {
      keys.grantFingerprints(target.role);
      target.function.addEnvironment('FINGERPRINT_KMS_KEY_ID', keys.fingerprints.keyArn);
    }
    // 'schedules' is granted by the session expiry's construct, which owns the schedule group; 'outboundHttp' needs no grant.
    // A route's function is the ServiceFunction named by its route id (infra/constructs/api.ts).
    if (need === 'userPool') userPool.grantRouteActions(target, target.node.id as RouteId);
    if (need === 'gateways') {
      for (const id of GATEWAY_IDS) {
        const url = config.gatewayUrls[id] ?? StringParameter.valueForStringParameter(Stack.of(target), gatewayUrlParameterName(config.stage, id));
        target.function.addEnvironment(GATEWAY_URL_VARIABLES[id], url);
        const test = gatewayProfile(id).testEndpoint;
        const testUrl = config.gatewayTestUrls[id];
        if (test && testUrl) target.function.addEnvironment(test.variable, testUrl);
      }
    }
  }
}
