import { startSandboxBank, type SandboxBank } from '../../../infra/sandbox/bank/sandbox-bank.ts';
import { startMercantilSimulator, type MercantilSimulator } from '../../../infra/sandbox/mercantil/mercantil-simulator.ts';
import { startStripeSimulator, type StripeSimulator } from '../../../infra/sandbox/stripe/stripe-simulator.ts';
import { gatewayUrlParameterName } from '../../../infra/stage-config.ts';
import { systemClock } from '../../../shared/clock.ts';
import { GATEWAY_IDS } from '../../../shared/domain/merchant.ts';
import { LOOPBACK_GATEWAYS_VARIABLE } from '../../../shared/gateways/gateway-registry.ts';
import { LocalRestApi } from './api-gateway.ts';
import { startCognitoIssuer, type CognitoIssuer } from './cognito-issuer.ts';
import { EventSources } from './event-sources.ts';
import { LocalCloud } from './local-cloud.ts';
import { startMerchantReceiver, type MerchantReceiver } from './merchant-receiver.ts';
import { startMoto, type MotoServer } from './moto.ts';
import { sdkLayer, type SdkVariant } from './sdk-layer.ts';
import { readTemplate } from './synth.ts';
import type { CfnTemplate } from './template.ts';
import { deployUserPools, type DeployedUserPool } from './user-pool.ts';

export interface DeployedStack {
  cloud: LocalCloud;
  api: LocalRestApi;
  events: EventSources;
  bank: SandboxBank;
  /** Banco Mercantil's simulator: the mercantil parameter and GATEWAY_MERCANTIL_TEST_URL lead to it. */
  mercantil: MercantilSimulator;
  /** Stripe's simulator, the gateway URL the template's stripe parameter resolves to. */
  stripe: StripeSimulator;
  receiver: MerchantReceiver;
  dynamo: { endpoint: string };
  moto: MotoServer;
  /** The dashboard's user pool in moto, and Cognito's issuer host serving its keys to the functions. */
  userPool: DeployedUserPool;
  issuer: CognitoIssuer;
  /** Every line the functions printed, by function. */
  logs: Map<string, string[]>;
  stop(): Promise<void>;
}

/**
 * The synthesized stack "deployed" offline: DynamoDB Local, moto, the sandbox bank on loopback (its URLs are the
 * values of the template's gateway SSM parameters), every function runnable under aws-lambda-ric with the SDK
 * variant, the REST API's routes and the event sources running. `mutate` edits the template first (self-tests).
 */
export async function deployStack(
  { assemblyDir, dynamoEndpoint }: { assemblyDir: string; dynamoEndpoint: string },
  variant: SdkVariant,
  mutate?: (template: CfnTemplate) => void,
): Promise<DeployedStack> {
  const template = readTemplate(assemblyDir);
  mutate?.(template);
  const dynamo = { endpoint: dynamoEndpoint };
  const [moto, bank, mercantil, stripe, receiver] = await Promise.all([
    startMoto(),
    startSandboxBank({ clock: systemClock }),
    startMercantilSimulator({ clock: systemClock }),
    startStripeSimulator({ clock: systemClock }),
    startMerchantReceiver(),
  ]);
  const simulators = { ...bank.baseUrls, mercantil: mercantil.baseUrl, stripe: stripe.url };
  const issuer = await startCognitoIssuer(moto.endpoint);
  const logs = new Map<string, string[]>();
  const cloud = new LocalCloud({
    template,
    assemblyDir,
    dynamoEndpoint: dynamo.endpoint,
    motoEndpoint: moto.endpoint,
    sdk: sdkLayer(variant),
    parameterValues: (name) => GATEWAY_IDS.map((id) => (gatewayUrlParameterName('dev', id) === name ? simulators[id] : undefined)).find(Boolean),
    // Like a function given a private CA in its configuration: only the test certificates of the merchant receiver and Cognito's issuer host.
    // Mercantil's test URL defaults in the template to the bank's real sandbox: here it is the simulator, nothing leaves the machine.
    // The simulators listen on plain http on this machine, which a function takes only with ALLOW_LOOPBACK_GATEWAYS.
    extraEnvironment: { NODE_EXTRA_CA_CERTS: issuer.trustedWith(receiver.caFile), GATEWAY_MERCANTIL_TEST_URL: mercantil.baseUrl, [LOOPBACK_GATEWAYS_VARIABLE]: 'true' },
    nodeArgs: [...receiver.nodeArgs, ...issuer.nodeArgs],
    onLog: (fn, line) => logs.set(fn, [...(logs.get(fn) ?? []), line]),
  });
  await cloud.deploy();
  const [userPool] = await deployUserPools(cloud);
  if (!userPool) throw new Error('The template has no Cognito user pool with an app client');
  issuer.pools.add(userPool.poolId);
  const events = new EventSources(cloud);
  events.start();
  const api = new LocalRestApi(cloud);
  return {
    cloud,
    api,
    events,
    bank,
    mercantil,
    stripe,
    receiver,
    dynamo,
    moto,
    userPool,
    issuer,
    logs,
    async stop() {
      await events.stop();
      await cloud.stop();
      await Promise.all([moto.stop(), bank.close(), mercantil.close(), stripe.close(), receiver.close(), issuer.close()]);
    },
  };
}
