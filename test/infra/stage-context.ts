/**
 * The account and region every synthesis of the stack names (infra/stage-config.ts readStageEnvironment): any
 * well-formed pair, not us-east-1, so a literal us-east-1 in a template can only come from the stack itself.
 */
export const TEST_ENVIRONMENT = { account: '123456789012', region: 'eu-west-1' } as const;

/**
 * The custom domains a production stage must name: the checkout's certificate by ARN in us-east-1 (the test stack is
 * in eu-west-1), the API's created and validated in the hosted zone, which also gets the alias records.
 */
export const PRODUCTION_DOMAINS = {
  checkoutDomain: 'pay.example.com',
  checkoutCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0b6a7a4e-1111-4222-8333-944455556666',
  apiDomain: 'api.pay.example.com',
  hostedZoneId: 'Z0123456789ABCDEFGHIJ',
  hostedZoneName: 'pay.example.com',
} as const;

/** CDK context for a stage, with TEST_ENVIRONMENT and without bundling (wiring only). */
export const stageContext = (context: Record<string, unknown>): Record<string, unknown> => ({ ...TEST_ENVIRONMENT, 'aws:cdk:bundling-stacks': [], ...context });

/** A synthesis of the whole stack takes seconds alone and minutes on a loaded CI machine: set-up waits this long. */
export const SYNTH_TIMEOUT_MS = 300_000;
