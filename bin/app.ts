/**
 * The CDK app (`npm run synth`, `npx cdk deploy -c stage=<name>`). Configuration comes from context; see
 * infra/stage-config.ts for the keys and their defaults. cdk-nag's AwsSolutions pack checks every synth: a finding
 * without a justified suppression fails it.
 */
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { addPaymentsStack } from '../infra/stack.ts';

const app = new App();
addPaymentsStack(app);
Aspects.of(app).add(new AwsSolutionsChecks());
