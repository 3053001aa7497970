/**
 * The CDK app (`npm run synth`, `npx cdk deploy -c stage=<name>`). Configuration comes from context; see
 * infra/stage-config.ts for the keys and their defaults.
 */
import { App } from 'aws-cdk-lib';
import { addPaymentsStack } from '../infra/stack.ts';

addPaymentsStack(new App());
