import { describeDeployedStack } from './deployed-stack.ts';

describeDeployedStack('lockfile');
