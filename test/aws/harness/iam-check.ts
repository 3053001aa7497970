import type { AwsCall } from './aws-calls.ts';
import { resolveValue, resourcesOfType, type CfnTemplate, type PhysicalIds } from './template.ts';

interface Statement {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: unknown;
}

const wildcard = (pattern: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');
const list = <T>(v: T | T[]) => (Array.isArray(v) ? v : [v]);

/** The Allow statements of a role: its inline policies and the AWS::IAM::Policy resources attached to it. */
export function roleStatements(template: CfnTemplate, ids: PhysicalIds, roleLogicalId: string): Statement[] {
  const role = template.Resources[roleLogicalId];
  const inline = (role?.Properties?.Policies ?? []).flatMap((p: { PolicyDocument: { Statement: Statement[] } }) => p.PolicyDocument.Statement);
  const attached = resourcesOfType(template, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles ?? []).some((r: { Ref?: string }) => r.Ref === roleLogicalId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
  return [...inline, ...attached].map((s) => ({ ...s, Resource: resolveValue(s.Resource, ids, template) }));
}

export function isAllowed(statements: Statement[], action: string, resource: string): boolean {
  const matches = (s: Statement) => list(s.Action).some((a) => wildcard(a).test(action)) && list(s.Resource as string | string[]).some((r) => wildcard(r).test(resource));
  return statements.some((s) => s.Effect === 'Allow' && matches(s)) && !statements.some((s) => s.Effect === 'Deny' && matches(s));
}

/**
 * Cognito operations AWS takes unsigned: the user's own access token authorizes them, not IAM (the MFA enrolment
 * routes call them). An unsigned call carries no credential scope, so the recorder names it `anonymous` with the
 * service unknown; any other unsigned call is denied.
 */
const TOKEN_AUTHORIZED_OPERATIONS = new Set(['AssociateSoftwareToken', 'VerifySoftwareToken']);
const isTokenAuthorized = (call: AwsCall) => call.role === 'anonymous' && TOKEN_AUTHORIZED_OPERATIONS.has(call.action.split(':')[1] ?? '');

/**
 * Every recorded call that the caller's role in the template does not allow (action and resource), and every role
 * passed to Scheduler without iam:PassRole: what would be AccessDenied in AWS.
 */
export function deniedCalls(template: CfnTemplate, ids: PhysicalIds, calls: AwsCall[]): string[] {
  const denied = new Set<string>();
  for (const call of calls) {
    if (isTokenAuthorized(call)) continue;
    if (!template.Resources[call.role]) {
      denied.add(`${call.action} by unknown credentials ${call.role}`);
      continue;
    }
    const statements = roleStatements(template, ids, call.role);
    for (const resource of call.resources) {
      if (!isAllowed(statements, call.action, resource)) denied.add(`${call.role}: ${call.action} on ${resource}`);
    }
    if (call.passedRole && !isAllowed(statements, 'iam:PassRole', call.passedRole)) denied.add(`${call.role}: iam:PassRole on ${call.passedRole}`);
  }
  return [...denied];
}
