import { Fn, Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * 12 hex characters that are new for every creation of the stack (the last group of the UUID in its stack id). A
 * resource that must have a name and is kept on rollback or deletion (Retain) takes it as a suffix: the next
 * `cdk deploy` after a failed first one, or after a `cdk destroy`, creates a new name instead of failing on the
 * one left behind (AlreadyExists). Resolved by CloudFormation at deploy time.
 *
 * @example
 * new LogGroup(this, 'Logs', { logGroupName: `aws-waf-logs-svc-payments-prod-${perStackCreation(this)}` });
 */
export function perStackCreation(scope: IConstruct): string {
  const stackUuid = Fn.select(2, Fn.split('/', Stack.of(scope).stackId));
  return Fn.select(4, Fn.split('-', stackUuid));
}
