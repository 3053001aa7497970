/**
 * The account and region every synthesis of the stack names (infra/stage-config.ts readStageEnvironment): any
 * well-formed pair, not us-east-1, so a literal us-east-1 in a template can only come from the stack itself.
 */
export const TEST_ENVIRONMENT = { account: '123456789012', region: 'eu-west-1' } as const;

/** CDK context for a stage, with TEST_ENVIRONMENT and without bundling (wiring only). */
export const stageContext = (context: Record<string, unknown>): Record<string, unknown> => ({ ...TEST_ENVIRONMENT, 'aws:cdk:bundling-stacks': [], ...context });
