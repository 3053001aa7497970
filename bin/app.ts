/**
 * The CDK app (`npm run synth -- -c account=<id> -c region=<region>`, `npx cdk deploy -c stage=<name> -c account=...
 * -c region=...`). Configuration comes from context; see infra/stage-config.ts for the keys and their defaults:
 * account and region are required (or the CDK CLI's CDK_DEFAULT_ACCOUNT and CDK_DEFAULT_REGION). cdk-nag's
 * AwsSolutions pack checks every synth: a finding without a justified suppression fails it.
 */
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { addPaymentsStack } from '../infra/stack.ts';

const app = new App();
addPaymentsStack(app);
Aspects.of(app).add(new AwsSolutionsChecks());
